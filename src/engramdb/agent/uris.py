"""Where the agent keeps what it writes about itself: memories of the scope under
``system://agent/`` (each module names its own folder under it). Traces are kept apart from the
user's words by this prefix (``experience.is_trace``)."""

PREFIX = "system://agent/"
