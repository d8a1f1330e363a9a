/** The line an office page opens with after an action: what was done (a status), or why it was refused (an alert). */

/** Answers the page's flash and refusal lines, each only when there is one. */
export function Notices(props: { notice: { flash?: string; refused?: string }; refusedLabel: string }) {
  const { notice } = props;
  return (
    <>
      {notice.flash && (
        <p class="flash" role="status">
          {notice.flash}
        </p>
      )}
      {notice.refused && (
        <p class="refused" role="alert">
          <strong>{props.refusedLabel}:</strong> {notice.refused}
        </p>
      )}
    </>
  );
}
