/**
 * The setup pages' one question before they read or change anything: the API's own scope and role
 * check for the operation (frame/authorise.ts). A setupRefusal (403) is the setup's 403 page; an id that
 * is not the member's to see stays the API's 404, shown as the office's 404 page.
 */

import { ApiError } from "../../lib/api-error";
import type { Scope } from "../../types/scopes";
import { authorise } from "../frame/authorise";
import type { DeskContext } from "../frame/desk";
import { deskProblem } from "../frame/layout";
import { setupWordsOf } from "./words";

/** The setup's words in the member's language. */
export const setupWords = (c: DeskContext) => setupWordsOf(c.var.desk.locale);

/** The 403 page: setup is not this member's. */
export const forbiddenPage = (c: DeskContext) =>
  deskProblem(c, 403, setupWords(c).forbidden, setupWords(c).forbiddenText);

/**
 * Asks `authorise` for `operation` on `id`; answers the 403 page when the member's role may not,
 * undefined when it may. Other refusals (404) are thrown on to the office's error page.
 */
export async function setupRefusal(
  c: DeskContext,
  scope: Scope,
  operation: string,
  id?: string,
  body?: () => Promise<unknown>,
): Promise<Response | undefined> {
  try {
    await authorise(c, scope, operation, id, body);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return forbiddenPage(c);
    throw error;
  }
}
