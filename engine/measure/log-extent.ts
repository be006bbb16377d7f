/** How far the event log reaches: what a checkpoint records of it, and what a rebuild reads up to. */

/** How far one segment reaches: its intact bytes, and the offset and CRC of its last frame. */
export interface SegmentExtent {
  id: number
  bytes: number
  tailAt: number
  tailCrc: number
}

/** How far the log reaches (a checkpoint is valid while every segment it lists still holds this). */
export interface LogExtent {
  segments: SegmentExtent[]
}
