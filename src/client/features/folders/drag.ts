import type { DragEvent } from 'react';

/** The drag data a document card carries: its id, under a type only this app reads. */
const DOCUMENT_DRAG_TYPE = 'application/x-quillwright-document';

/** Props that make an element a document's drag source. */
export function documentDragSource(documentId: string) {
  return {
    onDragStart: (event: DragEvent) => {
      event.dataTransfer.setData(DOCUMENT_DRAG_TYPE, documentId);
      event.dataTransfer.effectAllowed = 'move';
    },
  };
}

/** Whether a drag carries a document (its id can only be read on drop). */
export const carriesDocument = (event: DragEvent) => event.dataTransfer.types.includes(DOCUMENT_DRAG_TYPE);

export const draggedDocument = (event: DragEvent) => event.dataTransfer.getData(DOCUMENT_DRAG_TYPE) || null;

/** Props that make an element take dropped documents. */
export function documentDropTarget(onDropDocument: (documentId: string) => void) {
  return {
    onDragOver: (event: DragEvent) => {
      if (!carriesDocument(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
    },
    onDrop: (event: DragEvent) => {
      const documentId = draggedDocument(event);
      if (!documentId) return;
      event.preventDefault();
      onDropDocument(documentId);
    },
  };
}
