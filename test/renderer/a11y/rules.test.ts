// renderer/src/a11y/rules.ts: keyboard and naming decisions of the accessibility layer
import { describe, expect, it } from 'vitest'
import { fieldName, labelText, rovingIndex, rowActionName, tabKeyTarget } from '../../../renderer/src/a11y/rules'

describe('tabKeyTarget', () => {
  const none = [false, false, false, false]
  it('moves to the next and previous tab with the arrows, wrapping around', () => {
    expect(tabKeyTarget('ArrowRight', 0, none)).toBe(1)
    expect(tabKeyTarget('ArrowRight', 3, none)).toBe(0)
    expect(tabKeyTarget('ArrowLeft', 0, none)).toBe(3)
    expect(tabKeyTarget('ArrowDown', 1, none)).toBe(2)
    expect(tabKeyTarget('ArrowUp', 1, none)).toBe(0)
  })

  it('goes to the first and last tab with Home and End, and ignores other keys', () => {
    expect(tabKeyTarget('Home', 2, none)).toBe(0)
    expect(tabKeyTarget('End', 0, none)).toBe(3)
    expect(tabKeyTarget('Home', 0, none)).toBeNull()
    expect(tabKeyTarget('a', 0, none)).toBeNull()
    expect(tabKeyTarget('Tab', 0, none)).toBeNull()
  })

  it('skips disabled tabs, and stays put when no other tab can be chosen', () => {
    expect(tabKeyTarget('ArrowRight', 0, [false, true, false])).toBe(2)
    expect(tabKeyTarget('ArrowLeft', 0, [false, false, true])).toBe(1)
    expect(tabKeyTarget('Home', 2, [true, false, false])).toBe(1)
    expect(tabKeyTarget('ArrowRight', 0, [false, true, true])).toBeNull()
    expect(tabKeyTarget('ArrowRight', 0, [])).toBeNull()
  })
})

describe('rovingIndex', () => {
  it('makes the selected tab the one Tab stop, else the first enabled tab', () => {
    expect(rovingIndex(2, [false, false, false])).toBe(2)
    expect(rovingIndex(-1, [true, false, false])).toBe(1)
    expect(rovingIndex(0, [true, false])).toBe(1)
    expect(rovingIndex(-1, [])).toBe(0)
  })
})

describe('fieldName and labelText', () => {
  it('names a lone control by its label (aria-labelledby) and several by label and hint', () => {
    expect(fieldName('开始日期', '选择日期', 0, 1)).toBeNull()
    expect(fieldName('商品信息', '广告主名称', 0, 3)).toBe('商品信息: 广告主名称')
    expect(fieldName('商品信息', null, 2, 3)).toBe('商品信息 3')
    expect(fieldName('商品信息', '  ', 1, 3)).toBe('商品信息 2')
  })

  it("reads a label's text without the required mark", () => {
    expect(labelText('活动名称\u00a0*')).toBe('活动名称')
    expect(labelText(' Name ')).toBe('Name')
    expect(labelText('Rate (*)')).toBe('Rate (*)')
  })
})

describe('rowActionName', () => {
  it('names a row button by its action and its row', () => {
    expect(rowActionName('编辑', '广告位 Banner 1')).toBe('编辑 广告位 Banner 1')
    expect(rowActionName('Delete', '  ')).toBe('Delete')
  })
})
