"""Every text the agent writes, in English and Chinese: the planner's instructions, the safe
fallback answers, lessons, rules, reflections and persona cues. ``lang_of`` picks the language
of a message (any CJK character: Chinese)."""

from __future__ import annotations

from ..text.tokenize import is_cjk


def lang_of(text: str) -> str:
    return "zh" if is_cjk(text or "") else "en"


SYSTEM = {
    "en": (
        "You are an agent with a long-term memory. Each turn you choose ONE action. Use the "
        "tools when they help; when you know the answer, give it. Before a task that needs "
        "several tools, call `plan` with the tools it requires; call `finish` with the final "
        "answer when the task is done. Answer in the user's language.\n\n"
        "What you know now (memory context and your cognitive state):\n{context}"),
    "zh": (
        "你是一个拥有长期记忆的智能体。每一轮你只选择一个动作。"
        "需要时调用工具；知道答案时直接回答。"
        "需要多个工具的任务，先调用 `plan` 列出必须用到的工具；"
        "任务完成时调用 `finish` 给出最终答案。"
        "用用户的语言回答。\n\n你现在知道的（记忆上下文与你的认知状态）：\n{context}"),
}

JSON_FORMAT = {
    "en": (
        "Tools (JSON Schema of their arguments):\n{tools}\n\nAnswer with ONE JSON object and "
        "nothing else, one of:\n"
        '{{"action": "tool", "tool": "<name>", "args": {{...}}}}\n'
        '{{"action": "answer", "text": "<your answer to the user>"}}\n'
        '{{"action": "finish", "text": "<final answer>"}}'),
    "zh": (
        "工具（参数的 JSON Schema）：\n{tools}\n\n"
        "只用一个 JSON 对象回答，不要其他文字，格式之一：\n"
        '{{"action": "tool", "tool": "<名称>", "args": {{...}}}}\n'
        '{{"action": "answer", "text": "<给用户的回答>"}}\n'
        '{{"action": "finish", "text": "<最终答案>"}}'),
}

RETRY = {
    "en": "Your last reply was not a valid action: {error}. Reply again with one valid action.",
    "zh": "你上一次的回复不是有效的动作：{error}。请重新给出一个有效的动作。",
}

CANNOT_PLAN = {
    "en": "Sorry, I could not work out how to answer this ({why}).",
    "zh": "抱歉，我没能想出如何回答这个问题（{why}）。",
}

STEP_LIMIT = {
    "en": "I stopped after {n} steps without finishing ({why}).",
    "zh": "我在 {n} 步之后停下了，任务没有完成（{why}）。",
}

FINISH_REFUSED = {
    "en": "refused: finish needs the tool(s) the plan required first: {missing}",
    "zh": "拒绝：结束前必须先运行计划要求的工具：{missing}",
}

FROM_CACHE = {
    "en": "answered from the semantic cache (similarity {sim:.2f} to an earlier question: {q})",
    "zh": "来自语义缓存的回答（与之前的问题相似度 {sim:.2f}：{q}）",
}

LESSON_TOOL = {
    "en": "Tool {tool} failed ({error}) when called with {args}; check its arguments and "
          "preconditions before calling it again.",
    "zh": "工具 {tool} 在参数 {args} 下失败（{error}）；再次调用前先检查参数和前提条件。",
}

LESSON_PLAN = {
    "en": "The planner could not choose a valid action ({why}); keep answers to one clear "
          "action.",
    "zh": "规划器没能选出有效动作（{why}）；每次只给出一个明确的动作。",
}

LESSON_STEPS = {
    "en": "The task ran out of steps ({n}); plan the required tools first and finish earlier.",
    "zh": "任务用完了步数（{n}）；先规划必需的工具，并尽早结束。",
}

RULE_FROM_FAILURES = {
    "en": "Before calling {tool}, check its arguments: it failed {n} times with {error}.",
    "zh": "调用 {tool} 之前先检查参数：它已经 {n} 次因 {error} 失败。",
}

PROCEDURE_TITLE = {"en": "Answer with {tools}", "zh": "用 {tools} 来回答"}

EXPERIENCE = {
    "en": "[agent experience] Situation: {situation} | Action: {action} | Result: {result} | "
          "Reward: {reward:+.2f}{lesson}",
    "zh": "[智能体经验] 情境：{situation} | 动作：{action} | 结果：{result} | "
          "奖励：{reward:+.2f}{lesson}",
}

LESSON_SUFFIX = {"en": " | Lesson: {lesson}", "zh": " | 教训：{lesson}"}

REFLECTION = {
    "en": "[agent reflection] {n} recent turn(s): {ok} succeeded, {bad} failed; mean reward "
          "{mean:+.2f}.{lessons}",
    "zh": "[智能体反思] 最近 {n} 轮：成功 {ok} 轮，失败 {bad} 轮；平均奖励 {mean:+.2f}。{lessons}",
}

STATE_TITLES = {
    "en": {"self": "I am", "tools": "I can use", "beliefs": "I believe", "goals": "My goals",
           "questions": "Open questions", "reflections": "Reflections"},
    "zh": {"self": "我是", "tools": "我能用的工具", "beliefs": "我相信", "goals": "我的目标",
           "questions": "未解决的问题", "reflections": "反思"},
}

# Reactions in a user's message that say whether old memories brought up unprompted are welcome.
PERSONA_NO = (
    "don't bring up", "do not bring up", "stop bringing up", "stop reminding", "i didn't ask",
    "i did not ask", "don't remind me", "do not remind me", "not relevant", "no need to remind",
    "不要提", "别提", "别再提", "没问你", "不用提醒", "别提醒", "不要提醒", "跟这个无关",
)
PERSONA_YES = (
    "thanks for reminding", "thank you for reminding", "good that you remembered",
    "glad you remembered", "keep reminding", "remind me of", "you remembered",
    "谢谢提醒", "多亏你记得", "你还记得", "继续提醒", "记得提醒",
)
