"""Off-topic questions for bench/abstain.py: things no LoCoMo conversation talks about, in
English and Chinese, of many forms (facts, plans, how-to, opinions); some name a speaker of the
conversation ({A}, {B}) with a topic absent from it, some share words with the conversations'
topics (painting, camping, adoption, dogs, music, yoga) but ask about something none holds."""

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
How do I write a Rust macro that generates enums?
What gauge of wire should the kitchen oven circuit use?
Which painting pigments were banned in the EU for containing cadmium?
What is the adoption rate of IPv6 among mobile carriers?
How many miles of hiking trails does the national forest service maintain in Alaska?
Which camping stove fuel works best above 5000 meters?
What is the recipe for the hospital cafeteria's sodium-free broth?
Who is the goalkeeper coach of the national handball team?
What did the city council decide about the parking meters on Elm Street?
How much does it cost to renew a commercial pilot license?
Which school district adopted the new algebra textbooks?
What breed of dog won the herding trial in Wales last spring?
What is the running time of the director's cut of the silent film?
Which yoga pose is banned in the insurance company's wellness program?
How do you descale an industrial espresso machine?
What is the shelf life of canned sardines?
Who painted the ceiling of the train station in Antwerp?
When does the library's rare manuscript exhibit close?
What is the maximum altitude of a hot air balloon flight permit?
How many seats does the opera house's balcony hold?
Which music festival banned drones this year?
What was the final score of the curling semifinal?
What is the warranty period for the office printer?
How do I migrate the mailing list to a new server?
What did the veterinarian prescribe for the zoo's giraffe?
Which supplier provides the bakery's rye flour?
What is the speed limit on the mountain pass in winter?
Who coaches the under-12 water polo team?
What did {A} decide about the lease on the warehouse in Rotterdam?
Which airline did {B} file a lost-luggage claim with in Singapore?
What is {A}'s blood pressure medication dosage?
How many shares of the utility company does {B} own?
What did {A} say about the dentist's root canal bill?
Which cloud region hosts {B}'s backup server?
What grade did {A} get in organic chemistry?
When is {B}'s jury duty?
What is {A}'s frequent flyer number?
Which violin maker restored {B}'s cello?
What did {A} pay for the scaffolding rental?
What is the license plate of {B}'s motorcycle?
Which lawyer handles {A}'s patent dispute?
How does the sewage treatment plant remove phosphates?
What is the thermal conductivity of copper?
Which chess opening did the champion play in round seven?
What is the freezing point of seawater?
How do glaciers form moraines?
What is the orbital period of the International Space Station?
Which tariff applies to imported steel pipes?
What causes aurora borealis?
How many strings does a sitar have?
What is the lifespan of a honeybee worker?
Who invented the cotton gin?
What is the deadline for filing VAT returns in Ireland?
How do I replace the timing belt on a diesel van?
Which sorting algorithm is stable and runs in n log n?
What is the boiling point of ethanol?
How do submarines control buoyancy?
What is the distance from Lisbon to the Azores?
What was the attendance at the cricket test match in Perth?
Which vitamin deficiency causes rickets?
How are hurricane categories assigned?"""

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
地铁三号线的信号系统是哪家公司做的？
厨房烤箱电路应该用多粗的电线？
欧盟为什么禁止含镉的颜料？
移动运营商的IPv6普及率是多少？
阿拉斯加国家森林有多少英里徒步道？
五千米以上露营炉用什么燃料最好？
医院食堂的无盐汤是怎么做的？
国家手球队的守门员教练是谁？
市议会对榆树街的停车计时器做了什么决定？
商用飞行员执照续期要多少钱？
哪个学区采用了新的代数课本？
去年春天威尔士牧羊犬比赛哪个品种赢了？
那部默片的导演剪辑版有多长？
怎么给工业咖啡机除垢？
沙丁鱼罐头的保质期是多久？
安特卫普火车站的天花板是谁画的？
图书馆的珍本手稿展什么时候结束？
热气球飞行许可的最高高度是多少？
歌剧院的楼座有多少个座位？
冰壶半决赛的最终比分是多少？
办公室打印机的保修期是多久？
怎么把邮件列表迁移到新服务器？
兽医给动物园的长颈鹿开了什么药？
面包店的黑麦粉是哪家供应的？
冬天山口的限速是多少？
{A}对鹿特丹仓库的租约做了什么决定？
{B}在新加坡向哪家航空公司申报了行李丢失？
{A}的降压药剂量是多少？
{B}持有多少公用事业公司的股票？
{A}对牙医的根管治疗账单说了什么？
{B}的备份服务器在哪个云区域？
{A}的有机化学考试得了多少分？
{B}什么时候去当陪审员？
{A}的常旅客卡号是多少？
{B}的摩托车车牌号是多少？
污水处理厂怎么去除磷酸盐？
铜的导热系数是多少？
冠军在第七轮下的是什么开局？
海水的冰点是多少？
冰川是怎么形成冰碛的？
国际空间站绕地球一圈要多久？
进口钢管适用什么关税？
极光是怎么形成的？
西塔琴有几根弦？
工蜂能活多久？
轧棉机是谁发明的？
爱尔兰的增值税申报截止日期是什么时候？
柴油面包车的正时皮带怎么换？
哪种排序算法既稳定又是n log n？
乙醇的沸点是多少？
潜艇怎么控制浮力？
里斯本到亚速尔群岛有多远？
珀斯板球测试赛有多少观众？
缺乏哪种维生素会得佝偻病？
飓风的等级是怎么划分的？
高铁票改签要收多少手续费？
公司年会的抽奖规则是什么？
小区物业费涨了多少？
社保断缴三个月有什么影响？
新能源汽车的购置税减免到哪年？
这台服务器的磁盘阵列是什么级别？"""


def questions(a: str, b: str) -> list[tuple[str, str]]:
    """The off-topic questions for a conversation between ``a`` and ``b``."""
    out = []
    for lang, block in (("en", EN), ("zh", ZH)):
        for line in block.strip().splitlines():
            out.append((line.strip().replace("{A}", a).replace("{B}", b), lang))
    return out
