// Where each evaluated point travels on the HookHost.Evaluate stream: the oneof case of
// EvaluateRequest and of EvaluateResponse whose field number is 10 + the point's `Point` value.
// Read from the descriptors, so the table follows the proto and cannot drift from it; shared by
// the agent client and the daemon.
import type { DescMessage } from "@bufbuild/protobuf";
import { HookdError } from "../errors.js";
import { EVALUATED_POINTS, POINT_TABLE } from "../points/index.js";
import type { EvaluatedPoint } from "../points/index.js";
import * as pb from "../proto.js";

export interface EvaluateStreamCase {
  readonly point: EvaluatedPoint;
  /** The oneof case of EvaluateRequest.request, e.g. "preTool". */
  readonly request: string;
  readonly requestSchema: DescMessage;
  /** The oneof case of EvaluateResponse.reply. */
  readonly response: string;
  readonly responseSchema: DescMessage;
}

function caseOf(schema: DescMessage, number: number, point: EvaluatedPoint): { localName: string; message: DescMessage } {
  const field = schema.fields.find((f) => f.number === number);
  if (field?.fieldKind !== "message" || field.oneof === undefined) {
    throw new HookdError("internal", `${schema.typeName} has no oneof message field ${number} for the point "${point}"`);
  }
  return { localName: field.localName, message: field.message };
}

/** By point. */
export const EVALUATE_STREAM_CASES: Readonly<Record<EvaluatedPoint, EvaluateStreamCase>> = Object.freeze(
  Object.fromEntries(
    EVALUATED_POINTS.map((point) => {
      const number = 10 + POINT_TABLE[point].proto;
      const request = caseOf(pb.EvaluateRequestSchema, number, point);
      const response = caseOf(pb.EvaluateResponseSchema, number, point);
      const entry: EvaluateStreamCase = { point, request: request.localName, requestSchema: request.message, response: response.localName, responseSchema: response.message };
      return [point, Object.freeze(entry)];
    }),
  ) as Record<EvaluatedPoint, EvaluateStreamCase>,
);

/** By EvaluateRequest.request case. */
export const EVALUATE_STREAM_REQUESTS: ReadonlyMap<string, EvaluateStreamCase> = new Map(Object.values(EVALUATE_STREAM_CASES).map((entry) => [entry.request, entry]));
