/** Every live thing is written whole at least once a minute: any moment's state is then a short scan from the last keyframe. */
export const keyframeMs = 60_000;
