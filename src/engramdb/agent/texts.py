"""Every text the agent writes, in English and Chinese: the planner's instructions, the safe
fallback answers, lessons, rules, reflections and persona cues. ``lang_of`` picks the language
of a message (any CJK character: Chinese)."""

from __future__ import annotations

from ..text.lang import script


def lang_of(text: str) -> str:
    return script(text or "")


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
    "en": {"self": "I am", "mission": "My mission", "limits": "My limits", "tools": "I can use",
           "priors": "Tool record", "drives": "My drives", "beliefs": "I believe",
           "goals": "My goals", "questions": "Open questions", "reflections": "Reflections",
           "notes": "After a recent action", "cautions": "Caution"},
    "zh": {"self": "我是", "mission": "我的使命", "limits": "我的限制", "tools": "我能用的工具",
           "priors": "工具的过往表现", "drives": "我的驱动力", "beliefs": "我相信",
           "goals": "我的目标", "questions": "未解决的问题", "reflections": "反思",
           "notes": "最近一个动作之后", "cautions": "注意"},
}

DRIVE_NAMES = {"en": {"coherence": "coherence", "competence": "competence",
                      "curiosity": "curiosity"},
               "zh": {"coherence": "一致性", "competence": "胜任感", "curiosity": "好奇心"}}

DRIVE_WHY = {
    "en": {"coherence": "{confirmations} confirmation(s), {contradictions} contradiction(s), "
                        "{questions} open question(s)",
           "competence": "{ok} of {actions} recent action(s) succeeded",
           "curiosity": "mean uncertainty {uncertainty:.2f}, {questions} open question(s)"},
    "zh": {"coherence": "{confirmations} 次证实，{contradictions} 次矛盾，"
                        "{questions} 个未解决的问题",
           "competence": "最近 {actions} 个动作成功 {ok} 个",
           "curiosity": "平均不确定度 {uncertainty:.2f}，{questions} 个未解决的问题"},
}

DRIVES_CONTENT = {
    "en": "[agent drives] coherence {coherence:.2f}, competence {competence:.2f}, curiosity "
          "{curiosity:.2f}",
    "zh": "[智能体驱动力] 一致性 {coherence:.2f}，胜任感 {competence:.2f}，好奇心 {curiosity:.2f}",
}

PRIOR_LINE = {
    "en": "{tool}: {ok} of {n} call(s) succeeded, predicted success {p:.2f}, about {secs:.1f} s "
          "and {tokens:.0f} tokens a call",
    "zh": "{tool}：{n} 次调用成功 {ok} 次，预计成功率 {p:.2f}，"
          "每次约 {secs:.1f} 秒、{tokens:.0f} 个词元",
}

PRIOR_CONTENT = {"en": "[agent tool record] {line}", "zh": "[智能体工具记录] {line}"}

LOW_PRIOR = {
    "en": "you chose {tool}, whose predicted success is only {p:.2f} ({ok} of {n} call(s) "
          "succeeded)",
    "zh": "你选择了 {tool}，它的预计成功率只有 {p:.2f}（{n} 次调用成功 {ok} 次）",
}

NOTE = {
    "en": "[action note] Outcome: {outcome} | Insight: {insight} | Uncertainty: {u:.2f} | "
          "Next question: {question}",
    "zh": "[动作反思] 结果：{outcome} | 领悟：{insight} | 不确定度：{u:.2f} | "
          "下一个问题：{question}",
}

NOTE_TEXTS = {
    "en": {
        "ok": "{tool} succeeded in {secs:.1f} s ({tokens} tokens of output)",
        "empty": "{tool} succeeded in {secs:.1f} s but returned nothing",
        "failed": "{tool} failed: {error}",
        "because": "I chose it because: {rationale}",
        "first": "first call of {tool}: its predicted success is now {after:.2f}",
        "ok_expected": "{tool} worked, as its record predicted (predicted success "
                       "{before:.2f} -> {after:.2f})",
        "ok_surprise": "{tool} worked although its record predicted failure (predicted "
                       "success {before:.2f} -> {after:.2f})",
        "fail_expected": "{tool} failed, as its record predicted (predicted success "
                         "{before:.2f} -> {after:.2f})",
        "fail_surprise": "{tool} failed although its record predicted success (predicted "
                         "success {before:.2f} -> {after:.2f})",
        "contradicts": "the result contradicts my belief {key} = {belief} (it says {seen}; "
                       "confidence {confidence_before:.2f} -> {confidence:.2f})",
        "confirms": "the result confirms my belief {key} = {belief} (confidence "
                    "{confidence_before:.2f} -> {confidence:.2f})",
        "q_which": "Which is right for {key}: {belief} or {seen}?",
        "q_failed": "What must hold before {tool} is called again (it failed with {kind})?",
        "q_empty": "Where else could what {tool} was asked for ({args}) be found?",
        "q_none": "none",
        "refused": "finishing was refused: {missing} had not run",
        "needs": "the plan requires {missing} before the answer",
        "q_refused": "What will {missing} add to the answer?",
        "fell_back": "no action could be planned ({why})",
        "no_action": "the planner gave no valid action after {n} action(s) in this turn",
        "q_fallback": "Which single action would move this request forward?",
        "answered": "answered after {n} action(s)",
        "turn": "{ok} of {n} tool call(s) in this turn succeeded; the answer rests on {used} "
                "memory(ies)",
        "q_answer": "Would the answer change if {tools} had worked?",
    },
    "zh": {
        "ok": "{tool} 成功，用时 {secs:.1f} 秒（输出 {tokens} 个词元）",
        "empty": "{tool} 成功，用时 {secs:.1f} 秒，但什么也没返回",
        "failed": "{tool} 失败：{error}",
        "because": "我选择它的理由：{rationale}",
        "first": "第一次调用 {tool}：它的预计成功率现在是 {after:.2f}",
        "ok_expected": "{tool} 成功了，与过往表现的预计一致"
                       "（预计成功率 {before:.2f} -> {after:.2f}）",
        "ok_surprise": "{tool} 成功了，而过往表现预计它会失败"
                       "（预计成功率 {before:.2f} -> {after:.2f}）",
        "fail_expected": "{tool} 失败了，与过往表现的预计一致"
                         "（预计成功率 {before:.2f} -> {after:.2f}）",
        "fail_surprise": "{tool} 失败了，而过往表现预计它会成功"
                         "（预计成功率 {before:.2f} -> {after:.2f}）",
        "contradicts": "结果与我的信念 {key} = {belief} 矛盾（结果是 {seen}；置信度 "
                       "{confidence_before:.2f} -> {confidence:.2f}）",
        "confirms": "结果证实了我的信念 {key} = {belief}（置信度 {confidence_before:.2f} -> "
                    "{confidence:.2f}）",
        "q_which": "{key} 到底是 {belief} 还是 {seen}？",
        "q_failed": "再次调用 {tool} 之前需要满足什么（它因 {kind} 失败）？",
        "q_empty": "{tool} 没找到的内容（{args}）还能在哪里找到？",
        "q_none": "无",
        "refused": "结束被拒绝：{missing} 还没有运行",
        "needs": "计划要求先运行 {missing} 再回答",
        "q_refused": "{missing} 能为回答补充什么？",
        "fell_back": "没能规划出动作（{why}）",
        "no_action": "本轮 {n} 个动作之后，规划器没有给出有效动作",
        "q_fallback": "哪一个动作能推进这个请求？",
        "answered": "在 {n} 个动作之后给出了回答",
        "turn": "本轮 {n} 次工具调用成功 {ok} 次；回答依据 {used} 条记忆",
        "q_answer": "如果 {tools} 成功了，回答会不同吗？",
    },
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
