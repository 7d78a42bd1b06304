# ruff: noqa: E501  (case data: one case a line)
"""The cases of bench/shape_probe.py: attribute types the slot table (write/slots.py) does not
know, each an update chain in English and in Chinese, with a subject for the chain and a second
subject for a near-miss (the same frame about someone or something else), plus near-miss pairs
of one subject and two attributes, and extensions.

A chain line: type | English frames (";"-separated, {s} subject, {v} value) | two subjects |
three values | question ({s}) || the same in Chinese. The first frame states the first value;
each later value uses the next frame (round robin), so cue words appear in some writes and not
in others."""

from __future__ import annotations

CHAINS = """
standup time | The {s} standup is at {v};The {s} standup moved to {v};The {s} standup is now at {v} | platform,design | 9:30,10:00,10:15 | when is the {s} standup? || {s}组的站会在{v};{s}组的站会改到{v};{s}组的站会现在在{v} | 平台,设计 | 9:30,10:00,10:15 | {s}组的站会几点？
cache host | The {s} cache lives on host {v};The {s} cache now lives on host {v} | build,test | alder-01,birch-07,cedar-12 | which host does the {s} cache live on? || {s}缓存放在主机{v}上;{s}缓存现在放在主机{v}上 | 构建,测试 | alder-01,birch-07,cedar-12 | {s}缓存在哪台主机上？
wifi password | The wifi password at the {s} is {v};The wifi password at the {s} changed to {v} | office,cabin | tulip-42,maple-17,lotus-88 | what is the wifi password at the {s}? || {s}的无线密码是{v};{s}的无线密码改成了{v} | 办公室,小屋 | tulip-42,maple-17,lotus-88 | {s}的无线密码是什么？
birthday | {s}'s birthday is on {v};{s}'s birthday is actually on {v} | Mara,Tobias | May 3,June 5,July 9 | when is {s}'s birthday? || {s}的生日是{v};{s}的生日其实是{v} | 李雷,王芳 | 5月3日,6月5日,7月9日 | {s}的生日是哪天？
car model | {s} drives a {v};{s} now drives a {v} | Priya,Jonas | Toyota,Honda,Volvo | what car does {s} drive? || {s}开的车是{v};{s}现在开的车是{v} | 张伟,刘洋 | 丰田,本田,沃尔沃 | {s}开什么车？
dentist day | {s}'s dentist appointment is on {v};{s}'s dentist appointment was moved to {v} | Omar,Keiko | Tuesday,Friday,Monday | when is {s}'s dentist appointment? || {s}的牙医预约在{v};{s}的牙医预约改到{v} | 陈静,赵强 | 周二,周五,周一 | {s}的牙医预约是哪天？
server os | The {s} servers run Ubuntu {v};The {s} servers now run Ubuntu {v} | billing,search | 20.04,22.04,24.04 | which Ubuntu do the {s} servers run? || {s}服务器运行Ubuntu {v};{s}服务器现在运行Ubuntu {v} | 计费,搜索 | 20.04,22.04,24.04 | {s}服务器运行哪个版本的Ubuntu？
rent | The rent for the {s} flat is {v} euros a month;The rent for the {s} flat went up to {v} euros a month | Lisbon,Porto | 900,950,1020 | how much is the rent for the {s} flat? || {s}那套公寓的房租是每月{v}元;{s}那套公寓的房租涨到每月{v}元 | 杭州,苏州 | 3500,3800,4200 | {s}那套公寓的房租是多少？
weight | {s}'s dog weighs {v} kg;{s}'s dog now weighs {v} kg | Hana,Felix | 12,14,15 | how much does {s}'s dog weigh? || {s}家的狗重{v}公斤;{s}家的狗现在重{v}公斤 | 孙悦,周杰 | 12,14,15 | {s}家的狗多重？
flight time | The {s} flight leaves at {v};The {s} flight was rescheduled to {v} | Tokyo,Cairo | 07:40,08:15,09:05 | when does the {s} flight leave? || 去{s}的航班{v}起飞;去{s}的航班改到{v}起飞 | 东京,开罗 | 07:40,08:15,09:05 | 去{s}的航班几点起飞？
dns host | The {s} DNS record points to {v};The {s} DNS record now points to {v} | api,docs | 10.0.0.12,10.0.0.40,10.0.3.7 | where does the {s} DNS record point? || {s}的DNS记录指向{v};{s}的DNS记录现在指向{v} | api,docs | 10.0.0.12,10.0.0.40,10.0.3.7 | {s}的DNS记录指向哪里？
manager name | The {s} team reports to {v};The {s} team now reports to {v} | payments,mobile | Ingrid,Rafael,Sunita | who does the {s} team report to? || {s}团队向{v}汇报;{s}团队现在向{v}汇报 | 支付,移动 | 马丽,黄磊,胡军 | {s}团队向谁汇报？
class room | The {s} class meets in room {v};The {s} class meets in room {v} from now on | chemistry,history | 204,311,118 | which room does the {s} class meet in? || {s}课在{v}教室上;{s}课改在{v}教室上 | 化学,历史 | 204,311,118 | {s}课在哪个教室？
phone number | {s}'s phone number is {v};{s}'s phone number changed to {v} | Aiko,Bruno | 555-0142,555-0199,555-0173 | what is {s}'s phone number? || {s}的电话号码是{v};{s}的电话号码换成了{v} | 郭敏,林涛 | 138-0011-2233,139-4455-6677,137-8899-0011 | {s}的电话号码是多少？
gym days | {s} goes to the gym on {v};{s} now goes to the gym on {v} | Nadia,Pedro | Mondays,Wednesdays,Saturdays | which day does {s} go to the gym? || {s}每{v}去健身房;{s}现在每{v}去健身房 | 何平,罗丽 | 周一,周三,周六 | {s}哪天去健身房？
deadline | The {s} report is due on {v};The {s} report deadline moved to {v} | quarterly,audit | March 14,March 21,April 2 | when is the {s} report due? || {s}报告的截止日期是{v};{s}报告的截止日期推迟到{v} | 季度,审计 | 3月14日,3月21日,4月2日 | {s}报告什么时候截止？
doctor name | {s}'s doctor is Dr. {v};{s}'s doctor is now Dr. {v} | Leon,Amara | Patel,Novak,Okafor | who is {s}'s doctor? || {s}的医生是{v}医生;{s}的医生现在是{v}医生 | 高峰,朱丹 | 王,李,张 | {s}的医生是谁？
budget | The {s} budget is {v} dollars;The {s} budget was cut to {v} dollars | marketing,travel | 50000,42000,38000 | what is the {s} budget? || {s}预算是{v}元;{s}预算削减到{v}元 | 市场,差旅 | 50000,42000,38000 | {s}预算是多少？
bedtime | {s} goes to bed at {v};{s} now goes to bed at {v} | Lena,Mateo | 9pm,8:30pm,8pm | when does {s} go to bed? || {s}晚上{v}睡觉;{s}现在晚上{v}睡觉 | 小明,小红 | 9点,8点半,8点 | {s}几点睡觉？
database host | The {s} database runs on {v};The {s} database was migrated to {v} | orders,users | db-east-1,db-west-2,db-central-3 | where does the {s} database run? || {s}数据库运行在{v};{s}数据库迁移到了{v} | 订单,用户 | db-east-1,db-west-2,db-central-3 | {s}数据库运行在哪里？
coach name | {s}'s tennis coach is {v};{s}'s tennis coach is now {v} | Elif,Marco | Sven,Dario,Tomas | who is {s}'s tennis coach? || {s}的网球教练是{v};{s}的网球教练现在是{v} | 吴昊,徐静 | 孙立,马超,杨帆 | {s}的网球教练是谁？
shoe size | {s} wears shoe size {v};{s} wears shoe size {v} now | Yara,Henrik | 38,39,40 | what shoe size does {s} wear? || {s}穿{v}码的鞋;{s}现在穿{v}码的鞋 | 韩梅,李娜 | 38,39,40 | {s}穿多大码的鞋？
commute | {s} takes the {v} bus to work;{s} now takes the {v} bus to work | Ravi,Greta | 42,17,8 | which bus does {s} take to work? || {s}坐{v}路公交上班;{s}现在坐{v}路公交上班 | 陈晨,王磊 | 42,17,8 | {s}坐几路公交上班？
salary | {s}'s salary is {v} a year;{s}'s salary was raised to {v} a year | Dmitri,Chloe | 60000,65000,72000 | what is {s}'s salary? || {s}的年薪是{v}元;{s}的年薪涨到{v}元 | 赵敏,钱伟 | 200000,240000,260000 | {s}的年薪是多少？
backup time | The {s} backup runs at {v};The {s} backup now runs at {v} | nightly,weekly | 02:00,03:30,01:15 | when does the {s} backup run? || {s}备份在{v}运行;{s}备份现在在{v}运行 | 每晚,每周 | 02:00,03:30,01:15 | {s}备份几点运行？
parking spot | {s} parks in spot {v};{s} was given parking spot {v} | Ahmed,Lucia | B12,C07,A03 | which parking spot does {s} use? || {s}的车位是{v};{s}的车位换成了{v} | 杨洋,周婷 | B12,C07,A03 | {s}的车位是哪个？
language tutor | {s} learns Spanish with {v};{s} now learns Spanish with {v} | Kofi,Ines | Carmen,Lucia,Pilar | who does {s} learn Spanish with? || {s}跟{v}学西班牙语;{s}现在跟{v}学西班牙语 | 黄婷,刘强 | 周老师,吴老师,郑老师 | {s}跟谁学西班牙语？
meeting room | The {s} review is held in {v};The {s} review moved to {v} | design,budget | Everest,Kilimanjaro,Denali | where is the {s} review held? || {s}评审在{v}会议室开;{s}评审改到{v}会议室开 | 设计,预算 | 黄山,泰山,华山 | {s}评审在哪个会议室？
api limit | The {s} API allows {v} requests per minute;The {s} API limit was raised to {v} requests per minute | search,upload | 100,250,500 | how many requests per minute does the {s} API allow? || {s}接口每分钟允许{v}次请求;{s}接口现在每分钟允许{v}次请求 | 搜索,上传 | 100,250,500 | {s}接口每分钟允许多少次请求？
vet | {s}'s cat sees the vet at {v};{s}'s cat now sees the vet at {v} | Sara,Olu | Greenfield Clinic,Riverside Clinic,Oakwood Clinic | where does {s}'s cat see the vet? || {s}家的猫在{v}看兽医;{s}家的猫现在在{v}看兽医 | 方芳,谢天 | 安康宠物医院,瑞鹏宠物医院,新瑞宠物医院 | {s}家的猫在哪里看兽医？
plan tier | The {s} account is on the {v} plan;The {s} account switched to the {v} plan | family,office | Basic,Pro,Enterprise | which plan is the {s} account on? || {s}账户用的是{v}套餐;{s}账户换成了{v}套餐 | 家庭,办公 | 基础,专业,企业 | {s}账户用的是什么套餐？
timezone | The {s} office works in {v} time;The {s} office switched to {v} time | Dubai,Manila | GMT+4,GMT+8,GMT+3 | which timezone does the {s} office work in? || {s}办公室使用{v}时区;{s}办公室改用{v}时区 | 迪拜,马尼拉 | GMT+4,GMT+8,GMT+3 | {s}办公室用哪个时区？
daily steps | {s}'s daily step goal is {v};{s}'s daily step goal is now {v} | Maya,Igor | 8000,10000,12000 | what is {s}'s daily step goal? || {s}每天的步数目标是{v}步;{s}每天的步数目标现在是{v}步 | 宋佳,唐宁 | 8000,10000,12000 | {s}每天的步数目标是多少？
repo branch | The {s} repo deploys from the {v} branch;The {s} repo now deploys from the {v} branch | web,worker | main,release-2,stable-3 | which branch does the {s} repo deploy from? || {s}仓库从{v}分支部署;{s}仓库现在从{v}分支部署 | 网站,任务 | main,release-2,stable-3 | {s}仓库从哪个分支部署？
school | {s}'s son attends {v};{s}'s son now attends {v} | Tariq,Elena | Hillside School,Lakeview School,Maple School | which school does {s}'s son attend? || {s}的儿子在{v}上学;{s}的儿子现在在{v}上学 | 冯刚,邓丽 | 实验小学,育才小学,东风小学 | {s}的儿子在哪上学？
printer floor | The {s} printer is on floor {v};The {s} printer was moved to floor {v} | colour,laser | 3,5,2 | which floor is the {s} printer on? || {s}打印机在{v}楼;{s}打印机搬到了{v}楼 | 彩色,激光 | 3,5,2 | {s}打印机在几楼？
medication dose | {s} takes {v} mg of ibuprofen;{s} now takes {v} mg of ibuprofen | Noor,Viktor | 200,400,600 | how much ibuprofen does {s} take? || {s}每次吃{v}毫克布洛芬;{s}现在每次吃{v}毫克布洛芬 | 曹阳,彭静 | 200,400,600 | {s}每次吃多少布洛芬？
release day | The {s} app ships on {v};The {s} app now ships on {v} | android,ios | Thursdays,Tuesdays,Fridays | which day does the {s} app ship? || {s}应用在{v}发布;{s}应用改到{v}发布 | 安卓,苹果 | 周四,周二,周五 | {s}应用哪天发布？
landlord | The landlord of the {s} house is {v};The landlord of the {s} house is now {v} | beach,city | Mr. Grant,Mrs. Lowe,Mr. Osei | who is the landlord of the {s} house? || {s}那套房子的房东是{v};{s}那套房子的房东现在是{v} | 海边,城里 | 老王,老李,老张 | {s}那套房子的房东是谁？
oncall | {s} is on call on {v};{s} is on call on {v} instead | Aria,Bilal | Mondays,Thursdays,Sundays | which day is {s} on call? || {s}在{v}值班;{s}改到{v}值班 | 潘悦,董磊 | 周一,周四,周日 | {s}哪天值班？
mailbox | The {s} mailbox is {v};The {s} mailbox changed to {v} | support,sales | help@acme.io,care@acme.io,desk@acme.io | what is the {s} mailbox? || {s}邮箱是{v};{s}邮箱改成了{v} | 客服,销售 | help@acme.io,care@acme.io,desk@acme.io | {s}邮箱是什么？
ticket count | The {s} queue has {v} open tickets;The {s} queue now has {v} open tickets | billing,network | 14,9,3 | how many open tickets does the {s} queue have? || {s}队列有{v}个未处理工单;{s}队列现在有{v}个未处理工单 | 计费,网络 | 14,9,3 | {s}队列有多少个未处理工单？
"""

# one subject, two attributes: both texts must stay current (no supersession either way)
NEAR_MISS = """
Mara lives in Oslo || Mara works in Oslo
The standup is at 10:00 || The retro is at 10:00
Tobias's birthday is on May 3 || Mara's birthday is on May 3
The build cache lives on host alder-01 || The CI runner lives on host birch-07
Redis runs on host alder-01 || Postgres runs on host birch-07
Priya drives a Toyota || Priya's sister drives a Honda
Room 101 is booked for Friday || Room 102 is booked for Friday
Jonas is 34 years old || Jonas is 180 cm tall
The office wifi password is tulip-42 || The guest wifi password is maple-17
Omar's dentist appointment is on Tuesday || Omar's haircut is on Tuesday
The billing servers run Ubuntu 22.04 || The search servers run Ubuntu 24.04
The rent for the Lisbon flat is 900 euros || The deposit for the Lisbon flat is 1800 euros
Hana's dog weighs 12 kg || Hana's cat weighs 4 kg
The Tokyo flight leaves at 07:40 || The Tokyo flight lands at 19:20
Keiko's doctor is Dr. Patel || Keiko's dentist is Dr. Novak
The marketing budget is 50000 dollars || The travel budget is 50000 dollars
Lena goes to bed at 9pm || Lena wakes up at 7am
Elif's tennis coach is Sven || Elif's piano teacher is Sven
The nightly backup runs at 02:00 || The weekly report runs at 02:00
Ahmed parks in spot B12 || Lucia parks in spot C07
The design review is held in Everest || The budget review is held in Denali
Maya's daily step goal is 8000 || Maya's daily calorie goal is 2000
Nadia goes to the gym on Mondays || Nadia goes swimming on Mondays
The support mailbox is help@acme.io || The sales mailbox is sales@acme.io
Igor takes the 42 bus to work || Igor takes the 17 bus to school
Greta likes coffee || Greta likes tea
The web repo deploys from the main branch || The web repo tests on the dev branch
Kofi learns Spanish with Carmen || Kofi learns French with Carmen
Aria is on call on Mondays || Bilal is on call on Mondays
Dmitri's salary is 60000 a year || Dmitri's bonus is 5000 a year
李雷住在奥斯陆 || 李雷在奥斯陆工作
站会在10:00 || 复盘会在10:00
李雷的生日是5月3日 || 王芳的生日是5月3日
构建缓存放在主机alder-01上 || 测试机放在主机birch-07上
张伟开的车是丰田 || 张伟的妹妹开的车是本田
101房间周五被预订了 || 102房间周五被预订了
刘洋今年34岁 || 刘洋身高180厘米
办公室的无线密码是tulip-42 || 访客的无线密码是maple-17
陈静的牙医预约在周二 || 陈静的理发预约在周二
计费服务器运行Ubuntu 22.04 || 搜索服务器运行Ubuntu 24.04
杭州那套公寓的房租是每月3500元 || 杭州那套公寓的押金是7000元
孙悦家的狗重12公斤 || 孙悦家的猫重4公斤
去东京的航班07:40起飞 || 去东京的航班19:20降落
赵强的医生是王医生 || 赵强的牙医是李医生
市场预算是50000元 || 差旅预算是50000元
小明晚上9点睡觉 || 小明早上7点起床
吴昊的网球教练是孙立 || 吴昊的钢琴老师是孙立
每晚备份在02:00运行 || 每周报表在02:00运行
杨洋的车位是B12 || 周婷的车位是C07
设计评审在黄山会议室开 || 预算评审在泰山会议室开
宋佳每天的步数目标是8000步 || 宋佳每天的热量目标是2000卡
何平每周一去健身房 || 何平每周一去游泳
客服邮箱是help@acme.io || 销售邮箱是sales@acme.io
陈晨坐42路公交上班 || 陈晨坐17路公交上学
韩梅喜欢咖啡 || 韩梅喜欢茶
网站仓库从main分支部署 || 网站仓库在dev分支测试
黄婷跟周老师学西班牙语 || 黄婷跟周老师学法语
潘悦在周一值班 || 董磊在周一值班
赵敏的年薪是200000元 || 赵敏的奖金是20000元
小李喜欢爬山 || 小王喜欢爬山
"""

# an extension keeps the old text's words and adds details: an UPDATE (version 2)
EXTENSIONS = """
Greta likes coffee || Greta likes coffee, especially light-roast Ethiopian pour-over
The deploy checklist says to run the migrations first || The deploy checklist says to run the migrations first and then warm the cache
Mara plays the cello || Mara plays the cello in a community orchestra on Thursdays
The team uses Jira for bugs || The team uses Jira for bugs and feature requests
Jonas is allergic to peanuts || Jonas is severely allergic to peanuts and carries an EpiPen
Priya collects vinyl records || Priya collects vinyl records from the 1970s
The garage door code is 4417 || The garage door code is 4417, press the hash key after it
Omar prefers window seats || Omar prefers window seats on long flights
Hana volunteers at the shelter || Hana volunteers at the animal shelter every Saturday
Felix is learning Japanese || Felix is learning Japanese with a tutor online
韩梅喜欢咖啡 || 韩梅喜欢咖啡，尤其是浅烘的埃塞俄比亚手冲
刘洋会拉大提琴 || 刘洋会拉大提琴，每周四在社区乐团演出
陈静对花生过敏 || 陈静对花生严重过敏，随身带着肾上腺素笔
张伟收集黑胶唱片 || 张伟收集七十年代的黑胶唱片
团队用Jira管理缺陷 || 团队用Jira管理缺陷和需求
孙悦在收容所做志愿者 || 孙悦每周六在动物收容所做志愿者
周杰在学日语 || 周杰在网上跟老师学日语
赵强喜欢靠窗的座位 || 赵强坐长途航班时喜欢靠窗的座位
王芳每天早上跑步 || 王芳每天早上在西湖边跑步五公里
车库门密码是4417 || 车库门密码是4417，输完按井号键
"""

# a procedure written as free text, then revised: the revision supersedes it
PROCEDURES = """
To release the app: bump the version, run the tests, tag the commit, push the tag || To release the app: bump the version, run the tests, sign the build, tag the commit, push the tag to the release remote
To restart the queue worker: drain the queue, stop the service, clear the lock file, start the service || To restart the queue worker: drain the queue, stop the service, start the service, check the logs
发布应用：更新版本号，运行测试，给提交打标签，推送标签 || 发布应用：更新版本号，运行测试，签名构建，给提交打标签，推送标签到发布仓库
重启队列服务：清空队列，停止服务，删除锁文件，启动服务 || 重启队列服务：清空队列，停止服务，启动服务，检查日志
"""


def chains() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for line in CHAINS.strip().splitlines():
        en, zh = line.split("||")
        name, *parts = [p.strip() for p in en.split("|")]
        zh_parts = [p.strip() for p in zh.split("|")]
        for language, (frames, subjects, values, question) in (("en", parts), ("zh", zh_parts)):
            out.append({"type": name, "language": language, "frames": frames.split(";"),
                        "subjects": subjects.split(","), "values": values.split(","),
                        "question": question})
    return out


def pairs(block: str) -> list[tuple[str, str]]:
    return [tuple(p.strip() for p in line.split("||"))  # type: ignore[misc]
            for line in block.strip().splitlines()]
