"""Calls to an OpenAI-compatible LLM endpoint, shared by the optional LLM features."""
