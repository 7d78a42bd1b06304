"""Off-topic questions for bench/abstain.py: things no LoCoMo conversation talks about, in
English and Chinese, of many forms (facts, plans, how-to, opinions); some name a speaker of the
conversation ({A}, {B}) with a topic absent from it."""

from __future__ import annotations

EN = """What is next year's funding plan for the semiconductor fab?
How do I rotate the TLS certificates on the Kubernetes ingress controller?
What was the outcome of the quantum entanglement experiment?
Which municipal bond yields the highest coupon this quarter?
What is the boiling point of liquid nitrogen at sea level?
How many moons does Neptune have?
Who won the 1986 chess world championship?
What is the melting point of tungsten?
How do you configure BGP route reflectors?
What is the tax treatment of cryptocurrency staking rewards in Germany?
Which enzyme breaks down lactose in the small intestine?
What port does the Postgres replica for the billing cluster use?
When does the patent on the lithium battery cathode expire?
What is the recommended torque for the cylinder head bolts?
How did the Byzantine empire collect taxes in the 9th century?
What is the half-life of carbon-14?
What did the auditors say about the Q3 revenue recognition?
Which compiler flag enables link-time optimization in GCC?
How much does a satellite launch on a Falcon 9 cost?
What are the side effects of metformin?
What is the GDP of Mongolia?
How do I reset the firmware on a Cisco router?
What was the verdict in the antitrust case against the railway company?
What is the airspeed velocity of a swallow?
Which stock exchange lists the mining company's shares?
How do you calculate the eigenvalues of a 3x3 matrix?
What is the capital of Burkina Faso?
What is the maximum load of the warehouse forklift?
Who designed the suspension bridge over the strait?
What is the SLA for the payments API?
How do I file an appeal against a zoning decision?
What are the symptoms of scurvy?
What was the exchange rate of the yen in 1995?
When is the board vote on the merger?
Which gene mutation causes cystic fibrosis?
How do you tune a PID controller?
What is the wavelength of the hydrogen alpha line?
What did the committee decide about the pension reform?
Where is the data center for the European region?
How many calories are in a gram of fat?
What does {A} think about the central bank's interest rate decision?
What is {A}'s opinion on blockchain consensus algorithms?
Which Kubernetes version does {B}'s cluster run?
What did {B} say about the quarterly earnings call?
How much did {A} invest in government bonds?
What is {B}'s view on nuclear fusion reactors?
Did {A} finish the thesis on protein folding?
What firmware does {B}'s router run?
What did {A} say about the semiconductor export rules?
Which database migration tool does {B} prefer?
What is the population of Reykjavik?
How long does it take light to reach Mars?
What is the chemical formula of sulfuric acid?
Who wrote the treaty of Westphalia?
What are the rules of cricket's follow-on?
How is the insurance premium for the fleet calculated?
What is the frequency of the CPU in the build server?
Which vaccine schedule applies to cattle?
What was the unemployment rate in Portugal in 2010?
How do I write a Rust macro that generates enums?"""

ZH = """明年半导体工厂的融资计划是什么？
量子纠缠实验的结果如何？
如何轮换Kubernetes入口控制器的证书？
液氮在海平面的沸点是多少？
海王星有几颗卫星？
钨的熔点是多少？
德国对加密货币质押收益怎么征税？
计费集群的数据库副本用哪个端口？
锂电池正极材料的专利什么时候到期？
气缸盖螺栓的推荐扭矩是多少？
碳14的半衰期是多少？
审计师对第三季度收入确认说了什么？
猎鹰9号发射一颗卫星要多少钱？
二甲双胍有哪些副作用？
蒙古的国内生产总值是多少？
怎么重置思科路由器的固件？
铁路公司反垄断案的判决是什么？
矿业公司的股票在哪个交易所上市？
怎么计算三阶矩阵的特征值？
布基纳法索的首都是哪里？
仓库叉车的最大载重是多少？
海峡大桥是谁设计的？
支付接口的服务等级协议是什么？
怎么对规划决定提出申诉？
坏血病有哪些症状？
1995年日元的汇率是多少？
董事会什么时候对合并进行投票？
哪种基因突变导致囊性纤维化？
怎么调节PID控制器？
委员会对养老金改革做了什么决定？
欧洲区的数据中心在哪里？
一克脂肪有多少卡路里？
{A}对央行的利率决定怎么看？
{A}对区块链共识算法有什么看法？
{B}的集群运行哪个版本的Kubernetes？
{B}对季度财报电话会说了什么？
{A}买了多少国债？
{B}怎么看核聚变反应堆？
{A}的蛋白质折叠论文写完了吗？
{B}的路由器用的什么固件？
雷克雅未克有多少人口？
光到达火星需要多长时间？
硫酸的化学式是什么？
威斯特伐利亚和约是谁起草的？
车队保险费是怎么计算的？
构建服务器的CPU频率是多少？
牛的疫苗接种计划是什么？
2010年葡萄牙的失业率是多少？
怎么写一个生成枚举的Rust宏？
拜占庭帝国在九世纪怎么收税？
氢阿尔法谱线的波长是多少？
哪个编译器参数开启链接时优化？
下个季度的市政债券收益率是多少？
如何配置BGP路由反射器？
谁赢得了1986年国际象棋世界冠军？
乳糖在小肠里被哪种酶分解？
货币政策委员会的会议纪要说了什么？
{A}的股票期权什么时候行权？
{B}申请的专利号是多少？
地铁三号线的信号系统是哪家公司做的？"""


def questions(a: str, b: str) -> list[tuple[str, str]]:
    """The off-topic questions for a conversation between ``a`` and ``b``."""
    out = []
    for lang, block in (("en", EN), ("zh", ZH)):
        for line in block.strip().splitlines():
            out.append((line.strip().replace("{A}", a).replace("{B}", b), lang))
    return out
