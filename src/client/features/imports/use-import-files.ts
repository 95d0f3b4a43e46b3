import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IMPORT_MAX_FILES } from '@shared/constants';
import type { ImportResponse } from '@shared/schemas/imports';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { documentsQueryKey } from '@client/features/documents';
import { importFile } from './api';
import { isImportable } from './importable';

export { IMPORT_ACCEPT } from './importable';

export interface ImportOutcome {
  imported: ImportResponse[];
  failed: { name: string; message: string }[];
}

/** The toast after an import: how many came in, what changed to fit, and what failed. */
function announce({ imported, failed }: ImportOutcome) {
  const changes = imported.flatMap((document) => document.degraded.map((change) => change.message));
  if (imported.length > 0) {
    toast({
      title: imported.length === 1 ? 'Document imported' : `${imported.length} documents imported`,
      description:
        [
          imported.length === 1 ? `“${imported[0]!.title}” is ready.` : null,
          changes.length > 0 ? `Adjusted to fit the editor: ${changes.join('; ')}.` : null,
          failed.length > 0
            ? `Not imported: ${failed.map((f) => `${f.name} (${f.message})`).join('; ')}`
            : null,
        ]
          .filter(Boolean)
          .join(' ') || undefined,
    });
  } else if (failed.length > 0) {
    toast({
      title: 'Error importing document',
      description: failed.map((f) => `${f.name}: ${f.message}`).join(' '),
      variant: 'destructive',
    });
  }
}

/**
 * Imports files one request each (several files make several documents; one bad file does not stop the
 * others), refreshes the dashboard and toasts a summary.
 */
export function useImportFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (files: File[]): Promise<ImportOutcome> => {
      const outcome: ImportOutcome = { imported: [], failed: [] };
      for (const file of files.slice(0, IMPORT_MAX_FILES)) {
        if (!isImportable(file)) {
          outcome.failed.push({ name: file.name, message: 'this file type cannot be imported' });
          continue;
        }
        try {
          outcome.imported.push(await importFile(file));
        } catch (error) {
          outcome.failed.push({ name: file.name, message: errorMessage(error) });
        }
      }
      for (const file of files.slice(IMPORT_MAX_FILES)) {
        outcome.failed.push({ name: file.name, message: `at most ${IMPORT_MAX_FILES} files at once` });
      }
      return outcome;
    },
    onSuccess: async (outcome) => {
      announce(outcome);
      await queryClient.invalidateQueries({ queryKey: documentsQueryKey });
    },
  });
}
