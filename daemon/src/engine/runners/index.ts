// The runners, one per point mode: what decide.ts dispatches to.
export { runWaterfall } from "./waterfall.js";
export { fanOut, foldSettled, answerNotNeeded } from "./fan-out.js";
export type { Settled, FoldStep } from "./fan-out.js";
export { runGuards } from "./guards.js";
export { runNotification } from "./notify.js";
export type { NotificationOutcome } from "./notify.js";
export { runChain } from "./chain.js";
export type { ChainApply, ChainOutcome } from "./chain.js";
export { runAround } from "./execute.js";
export type { AroundDispatch } from "./execute.js";
export { DEFAULT_DECIDER, decidedBy, handled } from "./outcome.js";
export type { PointOutcome, RunOptions } from "./outcome.js";
export { startShadows, callShadow, shadowOutcome } from "./shadow.js";
export type { ShadowRun } from "./shadow.js";
