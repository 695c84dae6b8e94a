/** Every live thing is written whole at least once a minute: any moment's state is then a short scan from the last keyframe. */
export const keyframeMs = 60_000;
/** A moment further than this past the last keyframe is in a gap: nothing was recorded then. */
export const gapMs = 2 * keyframeMs + 30_000;
