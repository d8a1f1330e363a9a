/**
 * What a PATCH by id does in every resource: hands its domain module the caller's edit (in the
 * order the `edit…` functions take it) and answers with the changed object and its new ETag.
 */
import type { Context } from "hono";
import { actorOf } from "../access/actor";
import type { AppEnv } from "../env";
import { etagOf, ifMatchTags } from "../lib/etag";

/** The context of a PATCH by id whose validated body is `C`. */
type EditContext<C> = Context<AppEnv, string, { out: { param: { id: string }; json: C } }>;

/**
 * The arguments of an edit by id, as every domain module's `edit…(env, db, businessId, id,
 * changes, ifMatch, actor)` takes them: the caller's business, the path's id, the validated
 * changes, the `If-Match` tags the change is based on, and who acts.
 */
export const editOf = <C>(c: EditContext<C>) =>
  [
    c.env,
    c.var.db,
    c.var.caller.businessId,
    c.req.valid("param").id,
    c.req.valid("json"),
    ifMatchTags(c),
    actorOf(c.var.caller),
  ] as const;

/** The answer to an edit: 200 with the changed object, its `ETag` made from `version`. */
export function answerEdited<T>(c: Context<AppEnv>, changed: T, version: string | number) {
  c.header("ETag", etagOf(version));
  return c.json(changed, 200);
}
