/**
 * The CalDAV requests a person's calendar object makes (RFC 4791, RFC 6578, RFC 4918), each one
 * exchange through `davRequest`: the collection's change marker, the members with events in a
 * time range (ETags only), the data of some members, and writing or deleting one member under
 * its ETag.
 */
import { type CaldavAccess, CaldavError, davRequest, type Fetcher } from "./http";
import { hrefPath, readMultistatus } from "./multistatus";

const XML = { "Content-Type": "application/xml; charset=utf-8" };
const CALENDAR = "text/calendar; charset=utf-8";

const escapeXml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** `20261201T000000Z`: an instant as a time-range wants it. */
const basicUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/**
 * The collection's change marker: its sync-token (RFC 6578), else its ctag; null when it has
 * neither (then every sync lists the window). Equal markers mean nothing in it changed.
 */
export async function collectionState(fetcher: Fetcher, access: CaldavAccess): Promise<string | null> {
  const answer = await davRequest(fetcher, access, {
    method: "PROPFIND",
    headers: { ...XML, Depth: "0" },
    body: '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:sync-token/><cs:getctag/></d:prop></d:propfind>',
    expect: [207],
  });
  const [own] = readMultistatus(answer.text);
  return own?.props["sync-token"] || own?.props.getctag || null;
}

/** A member of the collection: its href as the server spells it, and its ETag. */
export type Member = { href: string; etag: string | null };

/**
 * The members with an event overlapping `[from, to)` and their ETags (a `calendar-query` with a
 * time range, which the server answers recurrence-aware); more than `max` is a `CaldavError`.
 */
export async function listWindow(
  fetcher: Fetcher,
  access: CaldavAccess,
  from: number,
  to: number,
  max: number,
): Promise<Member[]> {
  const answer = await davRequest(fetcher, access, {
    method: "REPORT",
    headers: { ...XML, Depth: "1" },
    body: `<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${basicUtc(from)}" end="${basicUtc(to)}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
    expect: [207],
  });
  const own = hrefPath(access.url, access.url);
  const members = readMultistatus(answer.text)
    .filter((r) => r.href && r.status !== 404 && hrefPath(r.href, access.url) !== own)
    .map((r) => ({ href: r.href, etag: r.props.getetag ?? null }));
  if (members.length > max) {
    throw new CaldavError(
      `The calendar has more than ${max.toLocaleString("en-US")} events between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}.`,
    );
  }
  return members;
}

/** A member's data as fetched: its iCalendar text, or `gone` when it was deleted meanwhile. */
export type Fetched = { href: string; etag: string | null; data: string | null };

/** The iCalendar data of these members (one `calendar-multiget`). */
export async function fetchMembers(fetcher: Fetcher, access: CaldavAccess, hrefs: string[]): Promise<Fetched[]> {
  const answer = await davRequest(fetcher, access, {
    method: "REPORT",
    headers: { ...XML, Depth: "1" },
    body: `<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs.map((h) => `<d:href>${escapeXml(h)}</d:href>`).join("")}</c:calendar-multiget>`,
    expect: [207],
  });
  return readMultistatus(answer.text).map((r) => ({
    href: r.href,
    etag: r.props.getetag ?? null,
    data: r.status === 404 ? null : (r.props["calendar-data"] ?? null),
  }));
}

/** What a conditional write found: done (with the new ETag when the server sent one), or a changed member. */
export type WriteOutcome = { ok: true; etag: string | null } | { ok: false; conflict: true };

/**
 * Writes one member under its ETag: `If-Match` when one is known (the member is ours as we last
 * wrote it), else `If-None-Match: *` (a new member). A 412 is a `conflict`: someone (or an
 * earlier attempt whose answer was lost) changed it.
 */
export async function putMember(
  fetcher: Fetcher,
  access: CaldavAccess,
  url: string,
  body: string,
  etag: string | null,
): Promise<WriteOutcome> {
  const condition: Record<string, string> = etag ? { "If-Match": etag } : { "If-None-Match": "*" };
  const answer = await davRequest(fetcher, access, {
    method: "PUT",
    url,
    headers: { "Content-Type": CALENDAR, ...condition },
    body,
    // Some servers report a refused precondition as a 207 with the 412 inside.
    expect: [200, 201, 204, 207, 412],
  });
  if (answer.status === 412) return { ok: false, conflict: true };
  if (answer.status === 207) throw new CaldavError("The calendar server refused the event (a precondition failed).");
  return { ok: true, etag: answer.headers.get("ETag") };
}

/** Deletes one member under its ETag (`If-Match`, when one is known); a member already gone is deleted too. */
export async function deleteMember(
  fetcher: Fetcher,
  access: CaldavAccess,
  url: string,
  etag: string | null,
): Promise<WriteOutcome> {
  const answer = await davRequest(fetcher, access, {
    method: "DELETE",
    url,
    headers: etag ? { "If-Match": etag } : {},
    expect: [200, 202, 204, 404, 410, 412],
  });
  return answer.status === 412 ? { ok: false, conflict: true } : { ok: true, etag: null };
}

/** A member's current ETag, or null when it does not exist (a `PROPFIND` of it alone). */
export async function memberEtag(fetcher: Fetcher, access: CaldavAccess, url: string): Promise<string | null> {
  const answer = await davRequest(fetcher, access, {
    method: "PROPFIND",
    url,
    headers: { ...XML, Depth: "0" },
    body: '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>',
    expect: [207, 404],
  });
  if (answer.status === 404) return null;
  return readMultistatus(answer.text)[0]?.props.getetag ?? null;
}
