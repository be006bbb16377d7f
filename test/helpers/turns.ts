/** Counts the turns of the event loop until stop(): whether long work let other work run meanwhile. */
export function countTurns(): { readonly turns: number; stop(): number } {
  let turns = 0
  let on = true
  const tick = () => {
    if (!on) return
    turns++
    setImmediate(tick)
  }
  setImmediate(tick)
  return {
    get turns() {
      return turns
    },
    stop() {
      on = false
      return turns
    },
  }
}
