/** Messages of the reports screen. */
export const en = {
  title: 'Reports',
  back: 'Campaign',
  window: '{start} – {end}',
  refresh: 'Reload',
  progress: {
    label: 'Last fully computed day',
    net: 'net {date}',
    totalnet: 'total net {date}',
    incomplete: 'Figures after {date} are not complete yet ({filtration}): the day is still being counted.',
  },
  view: {
    trend: 'Daily trend', hours: 'Hour of day', region: 'Regions', reach: 'Reach & GRP', audience: 'Audience',
    minisite: 'Minisite events', realtime: 'Realtime today',
  },
  picker: {
    date: 'Date', position: 'Position', publishers: 'Publishers', spots: 'Spots', keywords: 'Keywords',
    audience: 'Audience', target: 'Target', level: 'Region level', region: 'Region', platform: 'Platform', sdk: 'SDK',
    filtration: 'Filtration', period: 'Metrics', measure: 'Figure', rankLevel: 'Rank by', panel: 'Panel',
    types: 'Tag types', audienceMeasure: 'Audience of', minisite: 'Minisite',
    allPublishers: 'All publishers', allSpots: 'All spots', allKeywords: 'All keywords', allTargets: 'All targets',
    globalRegion: 'Global (all hits)', allRegions: 'All regions of the level', allTypes: 'All tag types',
    invalid: 'Not valid with the current choices: {reason}',
  },
  position: { campaign: 'Campaign', publisher: 'Publisher', spot: 'Spot', keyword: 'Keyword' },
  audience: { overall: 'Overall', stable: 'Stable', target: 'Target' },
  level: { level0: 'Global & mainland', level1: 'Provinces', level2: 'Cities' },
  platform: { pc: 'PC', pm: 'PC + mobile', mb: 'Mobile' },
  sdk: { all: 'All', mm: 'MMA SDK', mz: 'Miaozhen SDK' },
  filtration: { net: 'Net', totalnet: 'Total net' },
  period: {
    acc: 'accumulated', day: 'of the day', avg_day: 'daily average', pct: '%', idx: 'index'
  },
  measure: {
    imp: 'Impressions', clk: 'Clicks', uim: 'Unique impressions', ucl: 'Unique clicks', evt: 'Events', uev: 'Unique visitors',
    grp: 'GRP', rch: 'Reach', sample: 'sample', spl: 'Sample ({of})',
  },
  audienceMeasure: { uim: 'Reached', ucl: 'Clicked' },
  note: {
    notOffered: "This report has no {name} '{value}': it shows '{used}'.",
    unique: 'Unique counts cannot be added across several rows, so totals leave them out.',
    firstCurves: 'The chart shows the first {shown} of {total} rows; the table has them all.',
    trendTarget: 'The daily trend needs day figures, which the API does not give for target audiences.',
  },
  reason: {
    unique: 'Unique counts cannot be added across several positions: choose one position.',
    noTargets: 'The campaign has no targets.',
    notPosition: 'This report has no rows by {value}.',
  },
  warn: {
    cell: 'Panel sample of {sample} persons (under {min}): unreliable',
    short: 'small sample',
    reach: 'Small panel samples: {list}. Figures resting on fewer than {min} panel persons are unreliable.',
    reachItem: '{label} from {from}+ ({sample} persons)',
    audience: 'Some audience figures rest on fewer than {min} panel persons and are unreliable (marked in the table).',
  },
  chart: {
    cutoff: 'cut-off',
    trend: { title: 'Daily trend: plan vs actual', subtitle: 'Impressions (bars, left) and clicks (lines, right) per day; dashed: plan' },
    hours: { title: 'Hour of day', subtitle: 'Accumulated from the campaign start to the date, per hour of the day' },
    realtime: { title: 'Realtime today', subtitle: 'Today ({date}) per hour: every hit but declared bots, global region' },
    region: { title: 'Regions by {measure}' },
    reach: { title: 'Reach curve 1+ to 10+', subtitle: 'Projected persons reached at least n times', one: 'GRP {grp} · universe {universe} · projected impressions {imp}' },
    audience: { title: 'Audience composition and index', uim: 'Persons reached: share carrying each tag, and index against the panel', ucl: 'Persons who clicked: share carrying each tag, and index against the panel', pct: 'Composition (%)', idx: 'Index (100 = panel)' },
    overview: { subtitle: 'Projected persons reached (left) and who clicked (right), net traffic, any platform and region' },
    minisite: { title: 'Minisite events' },
    minisiteHours: { title: 'Minisite events today by hour' },
  },
  unit: {
    impressions: 'Impressions', clicks: 'Clicks', hour: 'Hour', persons: 'Persons', frequency: 'Frequency', index: 'Index',
    events: 'Events', accumulated: 'Accumulated', ofDay: 'Of the day', imp: 'Impressions', clk: 'Clicks', uim: 'Identities', ucl: 'Identities',
  },
  series: {
    actualImp: 'Impressions', planImp: 'Planned impressions', actualClk: 'Clicks', planClk: 'Planned clicks',
  },
  col: {
    date: 'Date', planImp: 'Planned impressions', planClk: 'Planned clicks', hour: 'Hour', dayTotal: 'Day total', rank: 'Rank',
    region: 'Region', target: 'Target', universe: 'Universe', row: 'Row', panel: 'Panel', position: 'Position', tagType: 'Tag type',
    tag: 'Tag', event: 'Event',
  },
  sub: {
    overview: 'Audience overview', composition: 'Composition by tag', events: 'Events to the date', today: 'Today by hour',
    period: '{period}, {date}',
  },
  empty: {
    noData: 'No figures for these choices',
    noMinisite: 'No minisite credits this campaign. Minisites are set up under Local server & data.',
    noPanel: 'The campaign has no panel, so there are no audience figures.',
  },
  loadingDays: 'Loading {done} of {total} days…',
}

export const zh: typeof en = {
  title: '报表',
  back: '活动',
  window: '{start} – {end}',
  refresh: '重新加载',
  progress: {
    label: '最近完整计算日',
    net: '净值 {date}',
    totalnet: '总净值 {date}',
    incomplete: '{date} 之后的数据尚未计算完成（{filtration}）：当天仍在统计中。',
  },
  view: {
    trend: '每日趋势', hours: '时段分布', region: '地域', reach: '到达与 GRP', audience: '受众',
    minisite: 'Minisite 事件', realtime: '今日实时',
  },
  picker: {
    date: '日期', position: '维度', publishers: '媒体', spots: '广告位', keywords: '关键词',
    audience: '受众', target: '目标受众', level: '地域级别', region: '地域', platform: '平台', sdk: 'SDK',
    filtration: '过滤', period: '指标', measure: '数值', rankLevel: '排名级别', panel: '样本库',
    types: '标签类型', audienceMeasure: '受众口径', minisite: 'Minisite',
    allPublishers: '全部媒体', allSpots: '全部广告位', allKeywords: '全部关键词', allTargets: '全部目标受众',
    globalRegion: '全球（全部流量）', allRegions: '该级别全部地域', allTypes: '全部标签类型',
    invalid: '与当前选择不兼容：{reason}',
  },
  position: { campaign: '活动', publisher: '媒体', spot: '广告位', keyword: '关键词' },
  audience: { overall: '全体', stable: '稳定受众', target: '目标受众' },
  level: { level0: '全球与中国大陆', level1: '省份', level2: '城市' },
  platform: { pc: 'PC', pm: 'PC + 移动', mb: '移动' },
  sdk: { all: '全部', mm: 'MMA SDK', mz: '秒针 SDK' },
  filtration: { net: '净值', totalnet: '总净值' },
  period: {
    acc: '累计', day: '当日', avg_day: '日均', pct: '%', idx: '指数'
  },
  measure: {
    imp: '曝光', clk: '点击', uim: '独立曝光', ucl: '独立点击', evt: '事件', uev: '独立访客',
    grp: 'GRP', rch: '到达', sample: '样本', spl: '样本（{of}）',
  },
  audienceMeasure: { uim: '曝光受众', ucl: '点击受众' },
  note: {
    notOffered: '该报表没有 {name}「{value}」，改为显示「{used}」。',
    unique: '独立数无法跨多行相加，合计中不含独立数。',
    firstCurves: '图表仅显示 {total} 行中的前 {shown} 行，表格中包含全部。',
    trendTarget: '每日趋势需要当日数据，而 API 不为目标受众提供当日数据。',
  },
  reason: {
    unique: '独立数无法跨多个维度相加：请只选择一个维度。',
    noTargets: '该活动没有目标受众。',
    notPosition: '该报表没有按{value}的数据。',
  },
  warn: {
    cell: '样本量 {sample} 人（少于 {min}）：数据不可靠',
    short: '样本偏小',
    reach: '样本量偏小：{list}。样本少于 {min} 人的数据不可靠。',
    reachItem: '{label}（{from}+ 起，{sample} 人）',
    audience: '部分受众数据的样本少于 {min} 人，不可靠（已在表格中标出）。',
  },
  chart: {
    cutoff: '截止',
    trend: { title: '每日趋势：计划与实际', subtitle: '每日曝光（柱，左轴）与点击（线，右轴）；虚线为计划' },
    hours: { title: '时段分布', subtitle: '自活动开始至所选日期累计，按一天中的小时' },
    realtime: { title: '今日实时', subtitle: '今天（{date}）按小时：除声明的机器人外的全部流量，全球' },
    region: { title: '地域排名：{measure}' },
    reach: { title: '到达曲线 1+ 至 10+', subtitle: '被触达至少 n 次的推算人数', one: 'GRP {grp} · 总体 {universe} · 推算曝光 {imp}' },
    audience: { title: '受众构成与指数', uim: '曝光受众：带有各标签的比例及相对样本库的指数', ucl: '点击受众：带有各标签的比例及相对样本库的指数', pct: '构成（%）', idx: '指数（100 = 样本库）' },
    overview: { subtitle: '推算的曝光受众人数（左）与点击受众人数（右），净流量，不分平台和地域' },
    minisite: { title: 'Minisite 事件' },
    minisiteHours: { title: '今日 Minisite 事件（按小时）' },
  },
  unit: {
    impressions: '曝光', clicks: '点击', hour: '小时', persons: '人数', frequency: '频次', index: '指数',
    events: '事件', accumulated: '累计', ofDay: '当日', imp: '曝光', clk: '点击', uim: '独立身份数', ucl: '独立身份数',
  },
  series: {
    actualImp: '曝光', planImp: '计划曝光', actualClk: '点击', planClk: '计划点击',
  },
  col: {
    date: '日期', planImp: '计划曝光', planClk: '计划点击', hour: '小时', dayTotal: '全天合计', rank: '排名',
    region: '地域', target: '目标受众', universe: '总体', row: '行', panel: '样本库', position: '维度', tagType: '标签类型',
    tag: '标签', event: '事件',
  },
  sub: {
    overview: '受众概览', composition: '标签构成', events: '截至所选日期的事件', today: '今日按小时',
    period: '{period}，{date}',
  },
  empty: {
    noData: '当前选择下没有数据',
    noMinisite: '没有 Minisite 归因到该活动。Minisite 可在“本地服务与数据”中设置。',
    noPanel: '该活动没有样本库，因此没有受众数据。',
  },
  loadingDays: '正在加载第 {done}/{total} 天…',
}
