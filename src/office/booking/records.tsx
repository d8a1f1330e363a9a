/** A booking's messages sent (as `GET /bookings/{id}/messages` lists them) and its history (the audit's records of it). */
import type { toAuditEvent } from "../../audit/list";
import type { toMessage } from "../../messages/records";
import type { Formats } from "../../pages/i18n/format";
import type { DeskWords } from "../frame/en";

type Parts = { m: DeskWords; f: Formats };

/** The e-mails sent about the booking, oldest first. */
export function MessagesSent({ m, f, messages }: Parts & { messages: ReturnType<typeof toMessage>[] }) {
  return (
    <section aria-labelledby="messages">
      <h2 id="messages">{m.booking.messages}</h2>
      {messages.length === 0 ? (
        <p class="muted">{m.booking.noMessages}</p>
      ) : (
        <table class="log">
          <thead>
            <tr>
              <th scope="col">{m.booking.time}</th>
              <th scope="col">{m.booking.message}</th>
              <th scope="col">{m.booking.status}</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr>
                <td>{f.dateTime(message.sentAt ?? message.createdAt)}</td>
                <td>
                  {message.subject ?? message.kind}
                  <br />
                  <span class="muted small">{message.to}</span>
                </td>
                <td>
                  {message.status}
                  {message.reason ? ` (${message.reason})` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The audit's records of the booking, newest first: when, who, what and which fields. */
export function History({
  m,
  f,
  history,
  actors,
}: Parts & { history: ReturnType<typeof toAuditEvent>[]; actors: Map<string, string> }) {
  return (
    <section aria-labelledby="history">
      <h2 id="history">{m.booking.history}</h2>
      {history.length === 0 ? (
        <p class="muted">{m.booking.noHistory}</p>
      ) : (
        <table class="log">
          <thead>
            <tr>
              <th scope="col">{m.booking.time}</th>
              <th scope="col">{m.booking.who}</th>
              <th scope="col">{m.booking.what}</th>
            </tr>
          </thead>
          <tbody>
            {history.map((event) => (
              <tr>
                <td>{f.dateTime(event.at)}</td>
                <td>
                  {m.actors[event.actor.type] ?? event.actor.type}
                  {actors.has(event.actor.id) ? `: ${actors.get(event.actor.id)}` : ""}
                </td>
                <td>
                  <code>{event.action}</code>
                  {event.fields.length > 0 && (
                    <>
                      <br />
                      <span class="muted small">{m.fields(event.fields.join(", "))}</span>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
