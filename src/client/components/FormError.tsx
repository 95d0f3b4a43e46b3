import { ApiError, errorMessage } from '@client/lib/api';

export interface FormErrorDetails {
  message: string;
  /** The server's reasons (a refused password's rules), shown as a list under the message. */
  reasons: string[];
}

/** What a form shows for a failed request. */
export function toFormError(error: unknown): FormErrorDetails {
  return {
    message: errorMessage(error),
    reasons: error instanceof ApiError ? error.reasons : [],
  };
}

/** A form's error, said once, in the form: the message, then the reasons. */
export function FormErrorAlert({ error, id }: { error: FormErrorDetails; id?: string }) {
  return (
    <div
      id={id}
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
    >
      <p className="font-medium">{error.message}</p>
      {error.reasons.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {error.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
