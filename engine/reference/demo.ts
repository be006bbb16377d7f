/**
 * Demo reference data for the Chinese advertising market: advertisers with their brands, agencies,
 * the four name lists and the audience panels (spec §2.7, §4.5; vendor-notes §4, §5.6).
 * Hand-written demo content; names are "中文 English" as the vendor's lists show them.
 */
import type { PanelSeed, ReferenceSeed } from './types'

/** One panel tag type (a dimension of the audience), in the order targets compose them (vendor-notes §5.6). */
export interface PanelTagType { readonly type_id: string; readonly name_en: string; readonly name_cn: string }
/** One panel tag; tag ids are readable and unique within a panel. */
export interface PanelTag extends PanelTagType { readonly tag_id: string }

/** Advertisers in id order (ids 1..N), each with its brands (brand ids run 1..M across the list). */
const ADVERTISERS: readonly (readonly [string, readonly string[]])[] = [
  ['宝洁 Procter & Gamble', ['海飞丝 Head & Shoulders', '飘柔 Rejoice', '佳洁士 Crest', '帮宝适 Pampers', '吉列 Gillette', '玉兰油 Olay']],
  ['联合利华 Unilever', ['多芬 Dove', '力士 Lux', '清扬 Clear', '奥妙 OMO', '中华牙膏 Zhonghua']],
  ['可口可乐 Coca-Cola', ['可口可乐 Coca-Cola', '雪碧 Sprite', '芬达 Fanta', '美汁源 Minute Maid']],
  ['伊利 Yili', ['安慕希 Anmuxi', '金典 Satine', '舒化 Shuhua', '畅轻 Changqing']],
  ['蒙牛 Mengniu', ['特仑苏 Telunsu', '纯甄 Chunzhen', '真果粒 Zhenguoli', '优益C Yoyi C']],
  ["欧莱雅 L'Oréal", ["巴黎欧莱雅 L'Oréal Paris", '兰蔻 Lancôme', '美宝莲 Maybelline', "科颜氏 Kiehl's", '赫莲娜 Helena Rubinstein']],
  ['耐克 Nike', ['耐克 Nike', '匡威 Converse', '耐克跑步 Nike Running']],
  ['华为 Huawei', ['华为Mate Huawei Mate', '华为Pura Huawei Pura', '华为nova Huawei nova', '华为MatePad Huawei MatePad', '华为WATCH Huawei WATCH']],
  ['小米 Xiaomi', ['小米手机 Xiaomi Phone', '红米 Redmi', '小米汽车 Xiaomi EV', '米家 Mijia']],
  ['比亚迪 BYD', ['比亚迪王朝 BYD Dynasty', '比亚迪海洋 BYD Ocean', '腾势 Denza', '仰望 Yangwang', '方程豹 Fangchengbao']],
  ['雀巢 Nestlé', ['雀巢咖啡 Nescafé', '惠氏 Wyeth', '徐福记 Hsu Fu Chi', '美极 Maggi', '奇巧 KitKat']],
  ['百事 PepsiCo', ['百事可乐 Pepsi', "乐事 Lay's", '桂格 Quaker', '佳得乐 Gatorade', '七喜 7UP']],
  ['上汽大众 SAIC Volkswagen', ['帕萨特 Passat', '途观 Tiguan', '朗逸 Lavida', '斯柯达 Škoda']],
  ['阿里巴巴 Alibaba', ['淘宝 Taobao', '天猫 Tmall', '闲鱼 Xianyu', '高德地图 Amap', '饿了么 Ele.me', '夸克 Quark']],
  ['京东 JD.com', ['京东商城 JD Mall', '京东到家 JD Daojia', '京东物流 JD Logistics', '京东健康 JD Health']],
  ['蔚来 NIO', ['蔚来 NIO', '乐道 Onvo', '萤火虫 Firefly']],
  ['农夫山泉 Nongfu Spring', ['农夫山泉饮用天然水 Nongfu Spring Water', '东方树叶 Oriental Leaf', '茶π Tea π', '尖叫 Scream']],
  ['飞鹤 Feihe', ['星飞帆 Xingfeifan', '臻稚 Zhenzhi', '飞帆 Feifan']],
  ['安踏 Anta', ['安踏 Anta', '斐乐 FILA', '迪桑特 Descente', '可隆 Kolon Sport']],
  ['玛氏 Mars', ['德芙 Dove Chocolate', '士力架 Snickers', "M&M's巧克力豆 M&M's", '益达 Extra', '绿箭 Doublemint']],
  ['强生 Johnson & Johnson', ["强生婴儿 Johnson's Baby", '露得清 Neutrogena', '李施德林 Listerine', '邦迪 Band-Aid', '大宝 Dabao']],
  ["麦当劳 McDonald's", ["麦当劳 McDonald's", '麦咖啡 McCafé', '麦乐送 McDelivery']],
  ['百胜中国 Yum China', ['肯德基 KFC', '必胜客 Pizza Hut', '塔可贝尔 Taco Bell', '黄记煌 Huang Ji Huang', '小肥羊 Little Sheep']],
  ['星巴克 Starbucks', ['星巴克 Starbucks', '星巴克臻选 Starbucks Reserve', '星冰乐 Frappuccino']],
  ['贵州茅台 Kweichow Moutai', ['飞天茅台 Feitian Moutai', '茅台王子酒 Moutai Prince', '茅台1935 Moutai 1935', 'i茅台 iMoutai']],
]

const AGENCIES: readonly string[] = [
  '群邑 GroupM', '电通 Dentsu', '阳狮 Publicis', '宏盟 Omnicom', '哈瓦斯 Havas', '蓝色光标 BlueFocus',
  '省广 GIMC', '华扬联众 Hylink', '奥美 Ogilvy', '凯络 Carat', '浩腾 OMD', '传立 Mindshare',
]

const PRODUCTS: readonly string[] = [
  '海飞丝去屑洗发水 400ml', '飘柔人参滋养洗发露 750ml', '佳洁士3D炫白牙膏 120g', '帮宝适一级帮纸尿裤 L码', '吉列锋隐5剃须刀',
  '多芬深层营润沐浴露 1kg', '清扬男士去屑洗发水 500g', '可口可乐 330ml罐装', '雪碧 500ml', '安慕希希腊风味酸奶 205g',
  '金典有机纯牛奶 250ml', '特仑苏纯牛奶 250ml×12', '纯甄原味风味酸奶 200g', '兰蔻小黑瓶精华 50ml', '巴黎欧莱雅玻尿酸精华 30ml',
  '耐克 Air Max 270 跑鞋', '华为Mate 70 Pro', '华为nova 13', '小米15 Ultra', 'Redmi K80', '小米SU7',
  '比亚迪秦L DM-i', '比亚迪海豹06', '雀巢咖啡1+2原味 15条装', '惠氏启赋3段 800g', '百事可乐 330ml罐装', '乐事原味薯片 70g',
  '帕萨特 2025款', '途观L Pro', '蔚来ET5T', '乐道L60', '农夫山泉饮用天然水 550ml', '东方树叶茉莉花茶 500ml',
  '星飞帆3段 700g', '安踏氮科技跑鞋', '德芙丝滑牛奶巧克力 43g', '士力架花生夹心巧克力 51g', '强生婴儿润肤露 200ml',
  '肯德基吮指原味鸡', '必胜客超级至尊比萨', '星巴克焦糖玛奇朵', '飞天茅台 53%vol 500ml',
]

const PROGRAMS: readonly string[] = [
  '奔跑吧', '乘风破浪的姐姐', '披荆斩棘的哥哥', '中国好声音', '向往的生活', '极限挑战', '王牌对王牌', '歌手',
  '这！就是街舞', '脱口秀大会', '天天向上', '声生不息', '国家宝藏', '朗读者', '经典咏流传', '春节联欢晚会',
  '新闻联播', '庆余年', '繁花', '狂飙', '人世间', '三体', '梦华录', '长相思', '与凤行',
  'CBA联赛', '中超联赛', 'NBA常规赛', '英超联赛', '世界乒乓球锦标赛',
]

const PLMT_TYPES: readonly string[] = [
  '常规Banner', '富媒体Banner', '开屏', '信息流', '视频信息流', '贴片-前贴', '贴片-中插', '贴片-后贴',
  '暂停', '角标', '焦点图', '文字链', '搜索关键词', '弹窗', '全屏', '原生', '其它',
]

const EXTENSION_TYPES: readonly string[] = [
  '品牌形象活动-品牌形象', '品牌形象活动-品牌发布', '品牌形象活动-品牌代言', '品牌形象活动-节日营销',
  '产品推广活动-新品上市', '产品推广活动-促销', '产品推广活动-产品体验', '效果类活动-电商转化', '效果类活动-线索收集',
  '效果类活动-应用下载', '效果类活动-到店引流', '公关活动-社会责任', '公关活动-赛事赞助', '公关活动-危机公关',
  '内容营销-节目冠名', '内容营销-内容植入',
]

/** The tag types of every demo panel, in composition order (vendor-notes §5.6). */
export const PANEL_TAG_TYPES: readonly PanelTagType[] = [
  { type_id: 'gender', name_en: 'Gender', name_cn: '性别' },
  { type_id: 'age', name_en: 'Age', name_cn: '年龄' },
  { type_id: 'education', name_en: 'Education', name_cn: '学历' },
  { type_id: 'income', name_en: 'Personal monthly income', name_cn: '个人月收入' },
  { type_id: 'household_income', name_en: 'Household monthly income', name_cn: '家庭月收入' },
  { type_id: 'city_tier', name_en: 'City tier', name_cn: '城市级别' },
  { type_id: 'marital', name_en: 'Marital status', name_cn: '婚姻状况' },
]

// [tag_id, name_en, name_cn] per type; incomes are monthly, in CNY. Open-ended bands end in
// '-plus', not '+': tag ids must pass the engine's key pattern, and '+' reads as a space in forms.
const TAGS_BY_TYPE: Readonly<Record<string, readonly (readonly [string, string, string])[]>> = {
  gender: [['male', 'Male', '男'], ['female', 'Female', '女']],
  age: [
    ['0-17Y', '17 years and under', '17岁及以下'], ['18-24Y', '18-24 years', '18-24岁'], ['25-29Y', '25-29 years', '25-29岁'],
    ['30-34Y', '30-34 years', '30-34岁'], ['35-39Y', '35-39 years', '35-39岁'], ['40-44Y', '40-44 years', '40-44岁'],
    ['45-49Y', '45-49 years', '45-49岁'], ['50-54Y', '50-54 years', '50-54岁'], ['55-64Y', '55-64 years', '55-64岁'],
    ['65Y-plus', '65 years and over', '65岁及以上'],
  ],
  education: [
    ['edu-junior-high', 'Junior high school or below', '初中及以下'], ['edu-high-school', 'High school / secondary vocational', '高中/中专'],
    ['edu-college', 'Junior college', '大专'], ['edu-bachelor', "Bachelor's degree", '本科'], ['edu-master-plus', "Master's degree or above", '硕士及以上'],
  ],
  income: [
    ['inc-lt3k', 'Below CNY 3,000', '3000元以下'], ['inc-3k-5k', 'CNY 3,000-4,999', '3000-4999元'], ['inc-5k-8k', 'CNY 5,000-7,999', '5000-7999元'],
    ['inc-8k-12k', 'CNY 8,000-11,999', '8000-11999元'], ['inc-12k-20k', 'CNY 12,000-19,999', '12000-19999元'], ['inc-20k-plus', 'CNY 20,000 and above', '20000元及以上'],
  ],
  household_income: [
    ['hh-lt8k', 'Below CNY 8,000', '8000元以下'], ['hh-8k-15k', 'CNY 8,000-14,999', '8000-14999元'], ['hh-15k-25k', 'CNY 15,000-24,999', '15000-24999元'],
    ['hh-25k-40k', 'CNY 25,000-39,999', '25000-39999元'], ['hh-40k-plus', 'CNY 40,000 and above', '40000元及以上'],
  ],
  city_tier: [
    ['tier-1', 'Tier 1 cities', '一线城市'], ['tier-new1', 'New tier 1 cities', '新一线城市'], ['tier-2', 'Tier 2 cities', '二线城市'],
    ['tier-3', 'Tier 3 cities', '三线城市'], ['tier-4-5', 'Tier 4 cities and below', '四五线及以下'],
  ],
  marital: [['single', 'Single', '未婚'], ['married', 'Married', '已婚'], ['married-with-kids', 'Married with children', '已婚有子女']],
}

/** Every tag of every demo panel, grouped by type in PANEL_TAG_TYPES order. */
export const PANEL_TAGS: readonly PanelTag[] = PANEL_TAG_TYPES.flatMap((t) =>
  (TAGS_BY_TYPE[t.type_id] ?? []).map(([tag_id, name_en, name_cn]) => ({ tag_id, type_id: t.type_id, name_en, name_cn })),
)

const PANELS: readonly Pick<PanelSeed, 'panel_id' | 'platform' | 'released'>[] = [
  { panel_id: 'china-pc-2025', platform: 'pc', released: '2025-01-01' },
  { panel_id: 'china-pc-2026', platform: 'pc', released: '2026-01-01' },
  { panel_id: 'china-pm-2025', platform: 'pm', released: '2025-01-01' },
  { panel_id: 'china-pm-2026', platform: 'pm', released: '2026-01-01' },
  { panel_id: 'china-pmo-2026', platform: 'pmo', released: '2026-01-01' },
]

function panel(p: Pick<PanelSeed, 'panel_id' | 'platform' | 'released'>): PanelSeed {
  return {
    ...p,
    panel_name: `China ${p.platform.toUpperCase()} panel ${p.released.slice(0, 4)}`,
    types: PANEL_TAG_TYPES.map((t) => ({ ...t })),
    tags: PANEL_TAGS.map((t) => ({ ...t })),
  }
}

/** The demo reference data set; a fresh copy on every call. */
export function demoReference(): ReferenceSeed {
  const brands: ReferenceSeed['brands'] = []
  ADVERTISERS.forEach(([, names], i) => {
    for (const brand_name of names) brands.push({ brand_id: brands.length + 1, brand_name, advertiser_id: i + 1 })
  })
  return {
    advertisers: ADVERTISERS.map(([advertiser_name], i) => ({ advertiser_id: i + 1, advertiser_name })),
    brands,
    agencies: AGENCIES.map((agency_name, i) => ({ agency_id: i + 1, agency_name })),
    products: [...PRODUCTS],
    programs: [...PROGRAMS],
    plmttypes: [...PLMT_TYPES],
    extensiontypes: [...EXTENSION_TYPES],
    panels: PANELS.map(panel),
  }
}
