/** Field schemas several resources share: a person's name, e-mail and phone, a time zone, a list's `active` filter. */
import { isValidTimeZone } from "../calendar/rules";
import { z } from "../lib/zod";

/** Control characters, and the Unicode line and paragraph separators some mail software breaks lines at. */
const lineBreaking = /[\p{Cc}\u2028\u2029]/u;

/**
 * A name that reaches an e-mail's headers (the From name, the subject): the business's, its
 * sender name, a service's, a person's. One line of 1–`max` characters, ends trimmed: a line
 * break inside would start a header of its own (a Bcc to anyone).
 */
export const headerName = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((name) => !lineBreaking.test(name), "Use one line: no line breaks, tabs or other control characters.");

export const customerName = z.string().trim().min(1).max(200).openapi({ example: "Ada Lovelace" });

/** An e-mail address a client may send (a customer's, a provider's). */
export const customerEmail = z
  .email()
  .max(254)
  // RFC 2606 reserves .invalid; erased customers get such addresses, so no client may use one.
  .refine((email) => !/(^|[@.])invalid$/i.test(email), "Addresses under the reserved domain .invalid are not accepted.")
  .openapi({ example: "ada@example.com" });

export const customerPhone = z
  .string()
  .regex(/^\+?[0-9][0-9 ()./-]{2,30}$/, "Use digits, spaces and ( ) . / - with an optional leading +.")
  .openapi({ example: "+49 30 1234567" });

/** The IANA time zone a service's or provider's working hours are in. */
export const timezone = z
  .string()
  .refine(isValidTimeZone, "Use an IANA time zone name such as Europe/Berlin.")
  .openapi({ example: "Europe/Berlin" });

/** The `active` filter of a list of `things`: `true` (the default) lists the active ones, `false` the others. */
export const activeFilter = (things: string) =>
  z
    .enum(["true", "false"])
    .default("true")
    .openapi({ description: `\`true\` (default) for active ${things}, \`false\` for inactive ones.` });
