import { useRef, useState } from 'react';
import { ApiError } from './api-client';

/** How a form reads a refusal: which statuses can name a field, and which field its words name. */
export interface RefusalReading<F extends string> {
  statuses: readonly number[];
  fieldOf: (message: string) => F | null;
  /** What is shown at the field (default: the server's words as they are). */
  words?: (message: string) => string;
}

/**
 * A form's problems: one per field (shown next to it, the first focused), one for the whole
 * form, and whether a save is under way (`actions`, for FormActions). `check` shows what the
 * form's own check found; `save` runs the form's save and puts a refusal where it belongs: at
 * the field the server's words name, else under the form.
 */
export function useFormProblems<F extends string>() {
  const form = useRef<HTMLFormElement>(null);
  const [problems, setProblems] = useState<Partial<Record<F, string>>>({});
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const clear = (field: F) =>
    setProblems((current) => (current[field] ? { ...current, [field]: undefined } : current));

  const focusFirstProblem = () =>
    requestAnimationFrame(() =>
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );

  /** Shows what the form's own check `found` (nothing under the form); false (the first problem focused) unless `ok`. */
  const check = (found: Partial<Record<F, string>>, ok: boolean): boolean => {
    setFormProblem(null);
    setProblems(found);
    if (!ok) focusFirstProblem();
    return ok;
  };

  const save = async (run: () => Promise<unknown>, reading: RefusalReading<F>) => {
    setPending(true);
    try {
      await run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const field =
        error instanceof ApiError && reading.statuses.includes(error.status)
          ? reading.fieldOf(message)
          : null;
      if (field) {
        setProblems({ [field]: reading.words ? reading.words(message) : message } as Partial<
          Record<F, string>
        >);
        focusFirstProblem();
      } else {
        setFormProblem(message);
      }
    } finally {
      setPending(false);
    }
  };

  return {
    /** The form's own: its problems are shown by this hook, not by the browser's checks. */
    formProps: { ref: form, noValidate: true },
    problems,
    clear,
    check,
    save,
    actions: { pending, formProblem },
  };
}
