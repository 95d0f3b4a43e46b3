import { describe, expect, it } from 'vitest';
import { TOAST_LIMIT } from '@shared/constants';
import { reducer, type ToasterToast } from './use-toast';

const t = (id: string): ToasterToast => ({ id, title: id, open: true });

describe('toast store', () => {
  it(`keeps at most ${TOAST_LIMIT} toast, the newest`, () => {
    let state = { toasts: [] as ToasterToast[] };
    state = reducer(state, { type: 'ADD', toast: t('a') });
    state = reducer(state, { type: 'ADD', toast: t('b') });
    expect(state.toasts.map((x) => x.id)).toEqual(['b']);
    expect(state.toasts).toHaveLength(TOAST_LIMIT);
  });

  it('dismissing closes the toast; removing drops it', () => {
    let state = { toasts: [t('a')] };
    state = reducer(state, { type: 'DISMISS', toastId: 'a' });
    expect(state.toasts[0]?.open).toBe(false);
    state = reducer(state, { type: 'REMOVE', toastId: 'a' });
    expect(state.toasts).toEqual([]);
  });
});
