/**
 * `/office/setup/members`: the business's members (name, e-mail, role, status, person) with a form
 * to change each one's role and to disable or enable them, and the invitation form. A setupRefusal comes
 * back on this page with its reason, and the invitation's problems next to its fields.
 */
import type { toMember } from "../../access/members";
import type { FormFields } from "../../pages/form";
import type { DeskContext } from "../frame/desk";
import type { DeskStatus } from "../frame/layout";
import { inputId, TextField } from "./field";
import { setupPage, toSetup } from "./frame";
import { setupWords } from "./guard";
import type { ProviderChoice } from "./providers";

type Member = ReturnType<typeof toMember>;
export type MembersView = { members: Member[]; people: ProviderChoice[] };
export type MembersState = {
  flash?: string;
  refused?: string;
  invite?: FormFields;
  problems?: Record<string, string>;
};

const roles = ["owner", "frontdesk", "staff"] as const;

/** A select of the roles, `chosen` selected. */
function RoleSelect(props: { c: DeskContext; id: string; chosen?: string; label: string }) {
  const { m } = props.c.var.desk;
  return (
    <select id={props.id} name="role" aria-label={props.label}>
      {roles.map((role) => (
        <option value={role} selected={role === props.chosen}>
          {m.roles[role]}
        </option>
      ))}
    </select>
  );
}

/** A select of the people (for a staff member), `chosen` selected; the empty choice for other roles. */
function ProviderSelect(props: {
  c: DeskContext;
  id: string;
  people: ProviderChoice[];
  chosen?: string | null;
  label: string;
}) {
  return (
    <select id={props.id} name="providerId" aria-label={props.label}>
      <option value="">{setupWords(props.c).member.none}</option>
      {props.people.map((p) => (
        <option value={p.id} selected={p.id === props.chosen}>
          {p.name}
        </option>
      ))}
    </select>
  );
}

/** The members page. */
export function membersPage(c: DeskContext, view: MembersView, state: MembersState = {}, status: DeskStatus = 200) {
  const w = setupWords(c);
  const mw = w.member;
  const { m } = c.var.desk;
  const problems = state.problems ?? {};
  const nameOf = (id: string | null) => view.people.find((p) => p.id === id)?.name;
  return setupPage(
    c,
    status,
    { title: w.members, back: toSetup(c), flash: state.flash, refused: state.refused },
    <>
      <ul class="members">
        {view.members.map((member) => (
          <li>
            <p>
              <strong>{member.name}</strong> · {member.email}
              <br />
              {m.roles[member.role]} · {mw.statuses[member.status] ?? member.status}
              {member.providerId && ` · ${nameOf(member.providerId) ?? member.providerId}`}
            </p>
            <form method="post" action={`/office/setup/members/${member.id}/role`} class="inline">
              <RoleSelect c={c} id={`role-${member.id}`} chosen={member.role} label={`${mw.role}: ${member.name}`} />
              <ProviderSelect
                c={c}
                id={`person-${member.id}`}
                people={view.people}
                chosen={member.providerId}
                label={`${mw.person}: ${member.name}`}
              />
              <button class="btn ghost" type="submit">
                {mw.change}
              </button>
            </form>{" "}
            <form method="post" action={`/office/setup/members/${member.id}/status`} class="inline">
              <button
                class="btn ghost"
                type="submit"
                name="status"
                value={member.status === "disabled" ? "active" : "disabled"}
                aria-label={`${member.status === "disabled" ? mw.enable : mw.disable}: ${member.name}`}
              >
                {member.status === "disabled" ? mw.enable : mw.disable}
              </button>
            </form>
          </li>
        ))}
      </ul>
      <section aria-labelledby="invite">
        <h2 id="invite">{mw.invite}</h2>
        <p class="muted small">{mw.inviteHint}</p>
        <form method="post" action="/office/setup/members" class="setupform">
          <TextField name="name" label={mw.name} value={state.invite?.name} problem={problems.name} />
          <TextField name="email" type="email" label={mw.email} value={state.invite?.email} problem={problems.email} />
          <div class="field">
            <label for={inputId("role")}>{mw.role}</label>
            <RoleSelect c={c} id={inputId("role")} chosen={state.invite?.role ?? "staff"} label={mw.role} />
            {problems.role && <p class="err">{problems.role}</p>}
          </div>
          <div class="field">
            <label for={inputId("providerId")}>{mw.person}</label>
            <ProviderSelect
              c={c}
              id={inputId("providerId")}
              people={view.people}
              chosen={state.invite?.providerId}
              label={mw.person}
            />
            {problems.providerId && (
              <p class="err" id={`${inputId("providerId")}-err`}>
                {problems.providerId}
              </p>
            )}
          </div>
          <button class="btn" type="submit">
            {mw.inviteButton}
          </button>
        </form>
      </section>
    </>,
  );
}
