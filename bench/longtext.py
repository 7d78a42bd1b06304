"""Long conversation turns for bench/long_turns.py: prose, pasted logs and code answers, in
English and Chinese, generated from many templates and word lists with a seeded random source
(varied text, not one sentence repeated)."""

from __future__ import annotations

import random

NAMES_EN = ["Maya", "Tom", "Priya", "Jonas", "Aiko", "Carlos", "Lena", "Omar", "Grace", "Felix",
            "Nadia", "Victor", "Sofia", "Ravi", "Elena", "Marcus", "Hannah", "Diego"]
PLACES_EN = ["Lisbon", "the office", "Denver", "the lab", "Kyoto", "the warehouse", "Berlin",
             "the cafe on Fifth Street", "Toronto", "the data centre", "Nairobi", "the garage"]
THINGS_EN = ["the quarterly report", "the migration plan", "a new espresso machine", "the budget",
             "the onboarding checklist", "the garden shed", "the release notes", "a used bicycle",
             "the customer survey", "the invoice batch", "the wedding playlist", "the test suite",
             "the load balancer config", "a birthday present", "the rental contract"]
VERBS_EN = ["reviewed", "rewrote", "postponed", "finished", "argued about", "shipped", "cleaned up",
            "double-checked", "forgot about", "priced out", "sketched", "tested", "reorganised"]
TIMES_EN = ["on Monday", "last night", "before lunch", "over the weekend", "early this morning",
            "after the standup", "in March", "two days ago", "right before the deadline",
            "during the flight", "yesterday afternoon", "at the end of the sprint"]
FEELINGS_EN = ["relieved", "a bit anxious", "surprisingly calm", "frustrated", "excited",
               "tired but happy", "unsure", "proud"]

PROSE_EN = [
    "{n} {v} {t} {w} at {p}, and honestly it went better than expected.",
    "I think {n} was {f} when we {v} {t} {w}.",
    "We spent most of the time at {p} talking about {t}, which {n} had {v} {w}.",
    "The main problem with {t} is that nobody owns it, so {n} {v} it again {w}.",
    "If I remember correctly, {n} {v} {t} {w}, but the numbers still looked off.",
    "After {n} {v} {t}, we agreed to meet at {p} to go over the open questions.",
    "My plan for next week is to finish {t} first and then help {n} with {t2}.",
    "It took about {k} hours in total, most of it waiting for approvals from {n}.",
    "{n} asked whether {t} could wait until {p} reopens, and I said probably not.",
    "There were {k} separate issues, the worst being that {t2} depended on {t}.",
    "Honestly I felt {f} about it, because {t} has been dragging on since {w}.",
    "One thing worth noting: {n} prefers written updates over meetings.",
    "So the summary is that {t} is done, {t2} is blocked, and {n} is on leave {w}.",
    "We moved the discussion to {p} because the room was booked {w}.",
    "Nobody expected {n} to volunteer, but {n2} was {f} when they did.",
    "I asked {n2} to keep an eye on {t2} while I was away at {p}.",
    "The estimate went from {k} days to almost twice that once {n} {v} {t}.",
    "By the time we {v} {t2}, {n} had already left for {p}.",
]

LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"]
SERVICES = ["api-gateway", "billing", "auth", "scheduler", "search-indexer", "mailer", "worker-3",
            "cache", "payments", "uploader"]
LOG_EN = ["request handled path=/v1/{w1} status={st} latency_ms={ms}",
          "retrying job id={id} attempt={k} reason=timeout",
          "connection pool size={k} in_use={k2} waiting=0",
          "cache miss key=user:{id} ttl=300",
          "slow query took {ms}ms table={w1}_events rows={id}",
          "user {id} logged in from {ip}",
          "scheduled task {w1}_cleanup finished removed={k2}",
          "disk usage at {k}% on /var/lib/{w1}",
          "failed to parse payload field={w1} error=unexpected token",
          "worker heartbeat ok queue_depth={k2}"]
WORDS = ["orders", "users", "invoices", "sessions", "reports", "events", "accounts", "uploads",
         "metrics", "tokens", "carts", "profiles"]

NAMES_ZH = ["王芳", "李明", "张伟", "刘洋", "陈静", "赵磊", "孙丽", "周杰", "吴敏", "郑浩",
            "黄蕾", "何军", "林晨", "高远"]
PLACES_ZH = ["杭州", "公司楼下的咖啡馆", "成都", "实验室", "深圳", "仓库", "北京", "会议室",
             "南京", "机房", "老家", "健身房"]
THINGS_ZH = ["季度报告", "迁移方案", "新买的咖啡机", "预算表", "入职清单", "发布说明",
             "客户调查问卷", "发票", "测试用例", "负载均衡配置", "生日礼物", "租房合同",
             "婚礼歌单", "搬家计划"]
VERBS_ZH = ["检查了", "重写了", "推迟了", "完成了", "讨论了", "上线了", "整理了", "复核了",
            "忘了", "比较了", "画了草图", "测试了", "重新安排了"]
TIMES_ZH = ["周一", "昨天晚上", "午饭前", "周末", "今天一早", "站会之后", "三月份", "两天前",
            "截止日期前", "飞机上", "昨天下午", "迭代结束时"]
FEELINGS_ZH = ["松了一口气", "有点焦虑", "出奇地平静", "很沮丧", "很兴奋", "累但开心",
               "拿不准", "挺自豪"]

PROSE_ZH = [
    "{n}{w}在{p}{v}{t}，说实话比预想的顺利。",
    "我们{w}{v}{t}的时候，{n}{f}。",
    "在{p}的大部分时间我们都在聊{t}，{n}{w}已经{v}一遍了。",
    "{t}最大的问题是没有人负责，所以{n}{w}又{v}一次。",
    "如果我没记错，{n}{w}{v}{t}，但数字还是对不上。",
    "{n}{v}{t}之后，我们约好在{p}把剩下的问题过一遍。",
    "我下周的计划是先把{t}做完，再去帮{n}弄{t2}。",
    "前后大概花了{k}个小时，大部分时间都在等{n}审批。",
    "{n}问{t}能不能等{p}重新开放再说，我说恐怕不行。",
    "一共有{k}个问题，最麻烦的是{t2}依赖{t}。",
    "说实话我{f}，因为{t}从{w}就一直拖着。",
    "有一点要记下：{n}更喜欢书面汇报，不喜欢开会。",
    "总结一下：{t}已经完成，{t2}卡住了，{n}{w}请假。",
    "因为会议室{w}被订满了，我们把讨论挪到了{p}。",
    "没人想到{n}会主动报名，{n2}听说以后{f}。",
    "我去{p}的时候，请{n2}帮忙盯着{t2}。",
    "{n}{v}{t}以后，估计的工期从{k}天变成了差不多两倍。",
    "等我们{v}{t2}的时候，{n}已经去{p}了。",
]
LOG_ZH = ["请求处理完成 路径=/v1/{w1} 状态={st} 耗时={ms}毫秒",
          "任务重试 编号={id} 第{k}次 原因=超时",
          "连接池大小={k} 使用中={k2} 等待=0",
          "缓存未命中 键=user:{id}",
          "慢查询耗时{ms}毫秒 表={w1}_events 行数={id}",
          "用户{id}从{ip}登录",
          "定时任务{w1}_cleanup执行完毕 删除={k2}条",
          "磁盘/var/lib/{w1}使用率{k}%",
          "解析请求体失败 字段={w1} 错误=意外的符号",
          "工作进程心跳正常 队列深度={k2}"]

CODE_NAMES = ["load_orders", "merge_profiles", "parse_invoice", "retry_upload", "sum_metrics",
              "clean_sessions", "build_report", "rotate_tokens", "fetch_carts", "index_events"]


def _fill(rng: random.Random, template: str, zh: bool) -> str:
    names, places, things, verbs, times, feelings = (
        (NAMES_ZH, PLACES_ZH, THINGS_ZH, VERBS_ZH, TIMES_ZH, FEELINGS_ZH) if zh else
        (NAMES_EN, PLACES_EN, THINGS_EN, VERBS_EN, TIMES_EN, FEELINGS_EN))
    n, n2 = rng.sample(names, 2)
    t, t2 = rng.sample(things, 2)
    return template.format(n=n, n2=n2, t=t, t2=t2, p=rng.choice(places), v=rng.choice(verbs),
                           w=rng.choice(times), f=rng.choice(feelings), k=rng.randint(2, 40))


def prose(rng: random.Random, zh: bool, sentences: int) -> str:
    lines = [_fill(rng, rng.choice(PROSE_ZH if zh else PROSE_EN), zh) for _ in range(sentences)]
    return ("" if zh else " ").join(lines)


def log_block(rng: random.Random, zh: bool, lines: int) -> str:
    out, sec = [], rng.randint(0, 3000)
    for _ in range(lines):
        sec += rng.randint(1, 40)
        body = rng.choice(LOG_ZH if zh else LOG_EN).format(
            w1=rng.choice(WORDS), st=rng.choice([200, 200, 201, 404, 500, 503]),
            ms=rng.randint(3, 4000), id=rng.randint(1000, 99999), k=rng.randint(1, 95),
            k2=rng.randint(0, 60), ip=f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.7")
        out.append(f"2024-05-{rng.randint(1, 28):02d}T{sec // 3600 % 24:02d}:"
                   f"{sec // 60 % 60:02d}:{sec % 60:02d}Z {rng.choice(LEVELS)} "
                   f"[{rng.choice(SERVICES)}] {body}")
    return "\n".join(out)


def code_block(rng: random.Random, zh: bool) -> str:
    name, word = rng.choice(CODE_NAMES), rng.choice(WORDS)
    comment = "# 先过滤掉空记录" if zh else "# skip empty rows first"
    body = [f"def {name}(rows, limit={rng.randint(10, 500)}):",
            f"    {comment}",
            "    kept = [r for r in rows if r]",
            f"    kept.sort(key=lambda r: r.get('{word}_at', 0))",
            "    total = sum(r.get('amount', 0) for r in kept[:limit])",
            f"    if total > {rng.randint(100, 9000)}:",
            f"        log.warning('{name}: total %s over budget', total)",
            "    return kept[:limit], total"]
    return "```python\n" + "\n".join(body) + "\n```"


def long_turn(rng: random.Random, zh: bool, chars: int, style: str = "mixed") -> str:
    """A turn of about ``chars`` characters (cut at a sentence end): "prose", "log" (a short
    note then a pasted log) or "mixed" (prose, code blocks and logs in turn)."""
    parts: list[str] = []
    size = 0
    step = 0
    while size < chars:
        first = (style == "mixed" and step % 3 == 0) or (style == "log" and not step)
        if style == "prose" or first:
            part = prose(rng, zh, rng.randint(3, 7))
        elif style == "log" or step % 3 == 1:
            part = log_block(rng, zh, rng.randint(4, 12))
        else:
            part = code_block(rng, zh)
        parts.append(part)
        size += len(part) + 2
        step += 1
    return _cut("\n\n".join(parts), chars)


def _cut(text: str, chars: int) -> str:
    if len(text) <= chars:
        return text
    head = text[:chars]
    ends = [head.rfind(m) for m in ("。", ". ", "\n", "！", "？")]
    end = max(ends)
    return head[: end + 1].rstrip() if end > chars * 0.8 else head.rstrip()
