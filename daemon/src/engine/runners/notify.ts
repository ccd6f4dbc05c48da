// Notifications: every listener is called concurrently; answers and listener errors are
// reported in listener order, with the first call whose failure counted as no opinion, and
// nothing a listener does can fail the caller.
import { mergeNotices } from "@hookd/sdk";
import type { DecisionOf, EventOf, HandlerContext, PointName, UserNotice } from "@hookd/sdk";
import { CallContext } from "@hookd/sdk/internal";
import { isPass } from "../decisions.js";
import type { ListenerError } from "../faults.js";
import { callListener } from "../invoke.js";
import type { Invocation } from "../invoke.js";
import type { Listener } from "../listener.js";
import type { RunOptions } from "./outcome.js";
import { failedAsPass } from "./outcome.js";

export interface NotificationOutcome<D> {
  /** Non-pass answers in listener order, with the plugin that gave each. */
  readonly answers: readonly { readonly plugin: string; readonly decision: D }[];
  /** Listener errors, in listener order. */
  readonly errors: readonly ListenerError[];
  /** The first call, in listener order, that failed and was answered with the failure policy's pass. */
  readonly fault?: Invocation;
  /** What the listeners said to the agent's user, passes included, merged in listener order. */
  readonly notice?: UserNotice;
}

export async function runNotification<P extends PointName>(listeners: readonly Listener<P>[], event: EventOf<P>, options: RunOptions): Promise<NotificationOutcome<DecisionOf<P>>> {
  type D = DecisionOf<P>;
  const results = await Promise.all(
    listeners.map((listener) =>
      callListener(listener, event, (abort): HandlerContext => new CallContext(abort, listener.plugin), options).then((result) => {
        options.onInvocation(result.invocation);
        return { listener, result };
      }),
    ),
  );
  const answers: { plugin: string; decision: D }[] = [];
  const errors: ListenerError[] = [];
  let fault: Invocation | undefined;
  const notices: UserNotice[] = [];
  for (const { listener, result } of results) {
    if (result.invocation.notice !== undefined) notices.push(result.invocation.notice);
    if (result.type === "error") errors.push(result.error);
    else if (!isPass(result.answer)) answers.push({ plugin: listener.plugin, decision: result.answer });
    else if (failedAsPass(result.invocation)) fault ??= result.invocation;
  }
  const said = notices.length === 0 ? {} : { notice: mergeNotices(notices) };
  return fault === undefined ? { answers, errors, ...said } : { answers, errors, fault, ...said };
}
