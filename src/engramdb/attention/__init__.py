"""Attention: the goal stack, procedures with triggers, and ``focus(query)``, the workspace
that says what deserves the prompt now and why (with an audit of every candidate)."""
