// renderer/src/views/sync/use-follow.ts: a pull or push followed while the page is mounted; a
// finished first status still ends; a new begin and unmounting drop the follow in flight
import { describe, expect, it, vi } from 'vitest'
import { createRenderer, defineComponent, h } from 'vue'
import { useFollow, type Follower } from '../../../renderer/src/views/sync/use-follow'

type S = { id: string; step: number; done: boolean }

/** Mounts a component that uses useFollow, with a renderer that draws nothing (no DOM here). */
function mounted(): { f: Follower<S>; seen: string[]; unmount: () => void } {
  const seen: string[] = []
  let f!: Follower<S>
  const { createApp } = createRenderer<object, object>({
    createElement: () => ({}), createText: () => ({}), createComment: () => ({}), insert: () => undefined, remove: () => undefined,
    setText: () => undefined, setElementText: () => undefined, patchProp: () => undefined, parentNode: () => null, nextSibling: () => null,
  })
  const app = createApp(defineComponent({
    setup() {
      f = useFollow<S>((s) => !s.done, (s) => seen.push(`update ${s.id}${s.step}`), (s) => seen.push(`ended ${s.id}${s.step}`), (e) => seen.push(`failed ${e.message}`), 0)
      return () => h('div')
    },
  }))
  app.mount({})
  return { f, seen, unmount: () => app.unmount() }
}

/** A read answered by hand. */
function pending() {
  const calls: ((s: S) => void)[] = []
  return { calls, read: () => new Promise<S>((resolve) => calls.push(resolve)) }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('useFollow', () => {
  it('ends at once when the first status has already finished, without reading', async () => {
    const { f, seen } = mounted()
    const r = pending()
    f.follow({ id: 'a', step: 1, done: true }, r.read)
    await settle()
    expect(seen).toEqual(['update a1', 'ended a1'])
    expect(r.calls).toHaveLength(0)
  })

  it('polls until the job ends, reporting each status', async () => {
    const { f, seen } = mounted()
    let step = 1
    f.follow({ id: 'a', step, done: false }, async () => ({ id: 'a', step: ++step, done: step === 3 }))
    // (each poll waits a timer turn: on a loaded machine two may not have run within one settle())
    await vi.waitFor(() => expect(seen).toEqual(['update a1', 'update a2', 'update a3', 'ended a3']))
  })

  it('never shows a late answer of a follow dropped by a new begin', async () => {
    const { f, seen } = mounted()
    const old = pending()
    f.follow({ id: 'a', step: 1, done: false }, old.read)
    await settle()
    const current = f.begin()
    f.follow({ id: 'b', step: 1, done: true }, pending().read, current)
    await settle()
    old.calls[0]!({ id: 'a', step: 2, done: true })
    await settle()
    expect(seen).toEqual(['update a1', 'update b1', 'ended b1'])
  })

  it('stops polling when the component unmounts', async () => {
    const { f, seen, unmount } = mounted()
    const r = pending()
    f.follow({ id: 'a', step: 1, done: false }, r.read)
    await settle()
    expect(r.calls).toHaveLength(1)
    unmount()
    r.calls[0]!({ id: 'a', step: 2, done: false })
    await settle()
    expect(r.calls).toHaveLength(1)
    expect(seen).toEqual(['update a1'])
  })

  it('reports a failed read', async () => {
    const { f, seen } = mounted()
    f.follow({ id: 'a', step: 1, done: false }, () => Promise.reject(new Error('gone')))
    await settle()
    expect(seen).toEqual(['update a1', 'failed gone'])
  })
})
