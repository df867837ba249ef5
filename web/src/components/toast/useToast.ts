import { useCallback } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { showToast, type ToastInput } from '../../features/shell/slice';

/** Shows the titled toast: `toast({ title, description, variant: 'destructive' })`. */
export function useToast(): (input: ToastInput) => void {
  const dispatch = useAppDispatch();
  return useCallback((input: ToastInput) => dispatch(showToast(input)), [dispatch]);
}
