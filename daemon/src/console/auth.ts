// Who may see the console: one token of its own (console.token or console.tokenFile), offered as
// `Authorization: Bearer <token>` (curl, scripts) or once through the login form, which sets an
// HttpOnly, SameSite=Strict cookie holding a value derived from the token (never the token
// itself). Owns the token check and the cookie; not routing.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";

export const SESSION_COOKIE = "hookd_console";

export interface ConsoleTokenConfig {
  readonly token?: string | undefined;
  readonly tokenFile?: string | undefined;
}

export class ConsoleAuth {
  readonly #token: Buffer;
  readonly #session: Buffer;

  /** Throws when the token file cannot be read or holds a token too short to be a secret. */
  constructor(config: ConsoleTokenConfig) {
    const token = config.token ?? (config.tokenFile === undefined ? "" : readFileSync(config.tokenFile, "utf8").trim());
    if (token.length < 16) throw new Error(`console.${config.token === undefined ? "tokenFile" : "token"}: a console token of at least 16 characters is required`);
    this.#token = Buffer.from(token);
    // The cookie proves the token was offered without carrying it: rotating the token ends every session.
    this.#session = Buffer.from(createHmac("sha256", this.#token).update("hookd console session v1").digest("base64url"));
  }

  /** Whether the request carries the token (bearer header) or a session cookie. */
  allows(request: IncomingMessage): boolean {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? "")?.[1];
    if (bearer !== undefined) return this.isToken(bearer);
    const cookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
    return cookie !== undefined && equal(Buffer.from(cookie), this.#session);
  }

  isToken(offered: string): boolean {
    return equal(Buffer.from(offered), this.#token);
  }

  /** The Set-Cookie header a sign-out answers with: the browser drops the session. */
  static clearedCookie(): string {
    return `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }

  /** The Set-Cookie header a successful login answers with. */
  sessionCookie(): string {
    return `${SESSION_COOKIE}=${this.#session.toString()}; HttpOnly; SameSite=Strict; Path=/`;
  }
}

function equal(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
