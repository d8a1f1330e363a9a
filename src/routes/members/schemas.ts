import { utcTimestamp } from "../../lib/datetime";
import { z } from "../../lib/zod";
import { listOf } from "../../lists/pagination";
import { customerEmail, headerName } from "../../schemas/fields";

const role = z.enum(["owner", "frontdesk", "staff"]).openapi({
  description:
    "`owner`: everything. `frontdesk`: bookings and customers (not erasure), reading the catalog. `staff`: their own provider's bookings and those bookings' customers.",
});
const providerId = z.string().max(40).openapi({
  description: "The provider a staff member is (one of the business's, such as `prv_01jd…`); only for `staff`.",
});

export const CreateMemberSchema = z
  .strictObject({
    email: customerEmail.openapi({
      description: "Where their sign-in links go; one member per address.",
      example: "grace@example.com",
    }),
    name: headerName(200).openapi({ example: "Grace Hopper" }),
    role: role.openapi({ example: "frontdesk" }),
    providerId: providerId.nullable().optional(),
  })
  .openapi("CreateMember", { example: { email: "front.desk@example.com", name: "Front Desk", role: "frontdesk" } });

export const UpdateMemberSchema = z
  .strictObject({
    name: headerName(200).optional(),
    role: role.optional(),
    status: z.enum(["active", "disabled"]).optional().openapi({
      description: "`disabled` ends their sessions at once; `active` undoes it (`invited` until a first sign-in).",
    }),
    providerId: providerId.nullable().optional(),
  })
  .openapi("UpdateMember");

export const MemberSchema = z
  .object({
    id: z.string().openapi({ example: "mbr_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    email: z.string(),
    name: z.string(),
    role,
    providerId: z.string().nullable(),
    status: z.enum(["invited", "active", "disabled"]),
    createdAt: utcTimestamp,
    lastSignInAt: utcTimestamp.nullable(),
  })
  .openapi("Member");

export const MemberListSchema = listOf(MemberSchema, "MemberList");

/** The example id of the member operations. */
export const memberIdExample = "mbr_01jd3k5v7q8r9s0t1u2v3w4x5y";

/** What the member operations say about who may call them. */
export const membersScopeNote =
  "Reading members needs `members:write` too: the list names people and their e-mail addresses, which only those who manage members need.";
