/**
 * A booking's office page and its actions: the facts, messages and history; cancel, no-show and
 * notes change the booking as the API shows it, with the member as the audit's actor; refusals,
 * other people's and other businesses' bookings, cross-site posts.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { appointmentStarted, at, dayOf } from "../support/bookings";
import { office } from "../support/members";
import { bookingOf, deskMember, deskSalon, page } from "../support/office";

type Audit = { actor: { type: string; id: string }; action: string; fields: string[] };

/** The audit's records of the booking, newest first, as the owner's key reads them. */
async function auditOf(key: string, id: string): Promise<Audit[]> {
  return (await json(await api("GET", `/audit-events?resourceId=${id}`, { key }))).data;
}

describe("a booking's page", () => {
  it("shows its facts, customer, person and, to the owner, its messages and history", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const { status, html } = await page(`/office/bookings/${s.mine.id}`, cookie);
    expect(status).toBe(200);
    for (const text of [
      "Cut · Mine Customer",
      "Confirmed",
      "Stylist 0",
      "10:00 AM–10:30 AM",
      "Messages sent",
      "History",
    ]) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain("booking.created");
    expect(html).toContain("Completed and no-show can be marked once the appointment has started.");
  });

  it("the front desk sees it without the history (the audit is the owner's)", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "frontdesk");
    const { status, html } = await page(`/office/bookings/${s.theirs.id}`, cookie);
    expect(status).toBe(200);
    expect(html).toContain("Their Customer");
    expect(html).not.toContain("booking.created");
  });

  it("cancelled with a reason: the API shows it cancelled and the audit names the member", async () => {
    const s = await deskSalon();
    const { cookie, id: memberId } = await deskMember(s, "frontdesk");
    const res = await office("POST", `/office/bookings/${s.mine.id}/cancel`, {
      cookie,
      form: { reason: "Called in sick" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/office/bookings/${s.mine.id}?done=cancelled`);
    const after = await bookingOf(s.apiKey, s.mine.id);
    expect(after.status).toBe("CANCELLED");
    expect(after.cancellationReason).toBe("Called in sick");
    const [latest] = await auditOf(s.apiKey, s.mine.id);
    expect(latest?.action).toBe("booking.cancelled");
    expect(latest?.actor).toEqual({ type: "member", id: memberId });
    const shown = await page(res.headers.get("Location") as string, cookie);
    expect(shown.html).toContain("The booking was cancelled.");
    expect(shown.html).toContain("Called in sick");
    // Cancelled, it leaves the day's columns.
    expect((await page(`/office/day/${after.startTime.slice(0, 10)}`, cookie)).html).not.toContain("Mine Customer");
  });

  it("no-show is refused before the start (the page says why, nothing changes) and done once started", async () => {
    const s = await deskSalon();
    const { cookie, id: memberId } = await deskMember(s, "staff");
    const early = await office("POST", `/office/bookings/${s.mine.id}/status`, { cookie, form: { status: "NO_SHOW" } });
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("Not done");
    expect((await bookingOf(s.apiKey, s.mine.id)).status).toBe("CONFIRMED");
    await appointmentStarted(s.businessId, s.cut, s.mine.id);
    const late = await office("POST", `/office/bookings/${s.mine.id}/status`, { cookie, form: { status: "NO_SHOW" } });
    expect(late.status).toBe(303);
    expect((await bookingOf(s.apiKey, s.mine.id)).status).toBe("NO_SHOW");
    const [latest] = await auditOf(s.apiKey, s.mine.id);
    expect(latest?.actor).toEqual({ type: "member", id: memberId });
    expect(latest?.fields).toContain("status");
  });

  it("notes are saved through the API's change and shown back", async () => {
    const s = await deskSalon();
    const { cookie, id: memberId } = await deskMember(s, "owner");
    const res = await office("POST", `/office/bookings/${s.theirs.id}/notes`, {
      cookie,
      form: { notes: "Prefers the window seat" },
    });
    expect(res.status).toBe(303);
    expect((await bookingOf(s.apiKey, s.theirs.id)).notes).toBe("Prefers the window seat");
    const [latest] = await auditOf(s.apiKey, s.theirs.id);
    expect(latest?.actor).toEqual({ type: "member", id: memberId });
    expect(latest?.fields).toEqual(["notes"]);
    const shown = await page(`/office/bookings/${s.theirs.id}?done=notes`, cookie);
    expect(shown.html).toContain("Notes saved.");
    // Only the flashes there are: any other word in the address says nothing.
    const odd = await page(`/office/bookings/${s.theirs.id}?done=constructor`, cookie);
    expect(odd.status).toBe(200);
    expect(odd.html).not.toContain('class="flash"');
    expect(shown.html).toContain("Prefers the window seat");
  });

  it("another person's booking is a 404 page to staff, for reading and for every action, and nothing changes", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "staff");
    const read = await page(`/office/bookings/${s.theirs.id}`, cookie);
    expect(read.status).toBe(404);
    expect(read.html).not.toContain("Their Customer");
    for (const [action, form] of [
      ["cancel", { reason: "x" }],
      ["status", { status: "NO_SHOW" }],
      ["notes", { notes: "x" }],
    ] as const) {
      const res = await office("POST", `/office/bookings/${s.theirs.id}/${action}`, { cookie, form });
      expect(res.status, action).toBe(404);
    }
    const after = await bookingOf(s.apiKey, s.theirs.id);
    expect(after.status).toBe("CONFIRMED");
    expect(after.notes).toBeNull();
  });

  it("another business's booking is a 404 page; an unknown id too", async () => {
    const s = await deskSalon();
    const other = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    expect((await page(`/office/bookings/${other.mine.id}`, cookie)).status).toBe(404);
    expect((await page("/office/bookings/bkg_nothing", cookie)).status).toBe(404);
    const res = await office("POST", `/office/bookings/${other.mine.id}/cancel`, { cookie, form: { reason: "x" } });
    expect(res.status).toBe(404);
    expect((await bookingOf(other.apiKey, other.mine.id)).status).toBe("CONFIRMED");
  });

  it("a cross-site post is refused (403) and changes nothing", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const res = await office("POST", `/office/bookings/${s.mine.id}/cancel`, {
      cookie,
      form: { reason: "x" },
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect((await bookingOf(s.apiKey, s.mine.id)).status).toBe("CONFIRMED");
  });

  it("a reason too long is refused on the page; German words when asked", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "owner");
    const res = await office("POST", `/office/bookings/${s.mine.id}/cancel`, {
      cookie,
      form: { reason: "x".repeat(501) },
      headers: { "Accept-Language": "de" },
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("Buchung stornieren");
    expect(html).toContain("Der Grund darf höchstens 500 Zeichen lang sein.");
    expect((await bookingOf(s.apiKey, s.mine.id)).status).toBe("CONFIRMED");
  });

  it("moved to a free time from the list the API gives; the audit names the member; a time not free is refused", async () => {
    const s = await deskSalon();
    const { cookie, id: memberId } = await deskMember(s, "frontdesk");
    const listed = await page(`/office/bookings/${s.mine.id}?moveDay=${dayOf(2)}`, cookie);
    const free = `${new Date(at(2, "14:00")).toISOString()}/${new Date(at(2, "14:30")).toISOString()}`;
    expect(listed.html).toContain(`value="${free}"`);
    const busy = `${new Date(at(2, "10:00")).toISOString()}/`;
    expect(listed.html).not.toContain(`value="${busy}`);
    const res = await office("POST", `/office/bookings/${s.mine.id}/move`, { cookie, form: { time: free } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/office/bookings/${s.mine.id}?done=moved`);
    expect(Date.parse((await bookingOf(s.apiKey, s.mine.id)).startTime)).toBe(Date.parse(at(2, "14:00")));
    const [latest] = await auditOf(s.apiKey, s.mine.id);
    expect(latest?.action).toBe("booking.rescheduled");
    expect(latest?.actor).toEqual({ type: "member", id: memberId });
    // Outside the person's hours: refused on the page, the booking stays where it is.
    const night = await office("POST", `/office/bookings/${s.mine.id}/move`, {
      cookie,
      form: { time: `${at(2, "22:00")}/${at(2, "22:30")}` },
    });
    expect(night.status).toBe(409);
    expect(await night.text()).toContain("Not done");
    expect(Date.parse((await bookingOf(s.apiKey, s.mine.id)).startTime)).toBe(Date.parse(at(2, "14:00")));
    const garbled = await office("POST", `/office/bookings/${s.mine.id}/move`, { cookie, form: { time: "soon" } });
    expect(garbled.status).toBe(422);
  });

  it("staff are not offered a move: the API gives them no free times to choose from", async () => {
    const s = await deskSalon();
    const { cookie } = await deskMember(s, "staff");
    const { html } = await page(`/office/bookings/${s.mine.id}?moveDay=${dayOf(2)}`, cookie);
    expect(html).toContain("Mine Customer");
    expect(html).not.toContain("Move to another time");
  });
});
