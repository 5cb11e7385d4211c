/** Epoch milliseconds. Injected wherever behaviour depends on time, so tests never sleep. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
