/**
 * `/office/passkeys`: the signed-in member's own passkeys, in the office's frame — the list (name,
 * when added, when last used, in the business's time zone and the member's language; a list as
 * the API keys page's, which a phone reads without squeezing columns), a remove button for each
 * (a plain form), and the form adding one, which the passkey script shows and
 * runs (ceremony.ts answers it); without JavaScript the page says adding needs it.
 */

import type { PasskeyListing } from "../../access/passkeys";
import { assetPaths } from "../../pages/assets";
import { formatsOf } from "../../pages/i18n/format";
import type { DeskContext } from "../frame/desk";
import { deskPage } from "../frame/layout";
import { RemoveButton } from "../setup/field";
import { setupStyle } from "../setup/style";
import { passkeyWordsOf } from "./words";

/** The passkeys page, with `flash` saying what the last post did. */
export function passkeysPage(c: DeskContext, list: PasskeyListing[], flash?: string) {
  const { locale, timezone, m } = c.var.desk;
  const pw = passkeyWordsOf(locale);
  const f = formatsOf(locale, timezone);
  const when = (at: string | null) => (at ? <time datetime={at}>{f.dateTime(at)}</time> : pw.never);
  return deskPage(c, 200, {
    title: pw.title,
    section: "passkeys",
    positions: setupStyle,
    script: assetPaths.passkeys,
    body: (
      <div class="stack">
        <h1>{pw.title}</h1>
        {flash && (
          <p class="flash" role="status">
            {flash}
          </p>
        )}
        <p class="muted">{pw.intro}</p>
        <section aria-labelledby="yours">
          <h2 id="yours">{pw.yours}</h2>
          {list.length === 0 ? (
            <p class="muted">{pw.none}</p>
          ) : (
            <>
              <p class="muted small">{m.day.zone(f.zone())}</p>
              <ul class="members">
                {list.map((key) => (
                  <li>
                    <p>
                      <strong>{key.name}</strong>
                      <br />
                      <span class="small">
                        {pw.added}: {when(key.createdAt)}
                      </span>
                      <br />
                      <span class="muted small">
                        {pw.lastUsed}: {when(key.lastUsedAt)}
                      </span>
                    </p>
                    <RemoveButton
                      action="/office/passkeys/remove"
                      name="id"
                      value={key.id}
                      word={pw.remove}
                      label={pw.removeOne(key.name)}
                    />
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
        <section aria-labelledby="addpasskey">
          <h2 id="addpasskey">{pw.add}</h2>
          {/* Shown by the passkey script where the browser can make a passkey. */}
          <form
            data-passkey="add"
            data-options="/office/passkeys/options"
            data-finish="/office/passkeys"
            class="setupform"
            hidden
          >
            <div class="field">
              <label for="passkey-name">{pw.newName}</label>
              <input id="passkey-name" name="name" maxlength={60} autocomplete="off" />
            </div>
            <button class="btn" type="submit">
              {pw.addButton}
            </button>
          </form>
          <noscript>
            <p class="muted">{pw.needsScript}</p>
          </noscript>
          <p
            role="status"
            data-passkey-status
            data-busy={pw.script.busy}
            data-done={pw.script.done}
            data-closed={pw.script.closed}
            data-failed={pw.script.failed}
          />
        </section>
      </div>
    ),
  });
}
