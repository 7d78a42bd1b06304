"""Adapters that let programs written for mem0, LangGraph and the OpenAI Agents SDK run on
engramdb by changing an import: ``mem0.Memory``, ``langgraph.EngramStore``,
``openai_agents.EngramSession``. Each is an optional extra; none holds logic of its own beyond
translating shapes."""
