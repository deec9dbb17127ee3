'use client';

import { useContext } from 'react';
import { useStore } from 'zustand';
import type { ControlRoomState } from '@/lib/state/control-room-store';
import { ControlRoomContext, type ControlRoomContextValue } from './ControlRoomProvider';

/** The control room's context; throws when used outside {@link ControlRoomProvider}. */
export function useControlRoomContext(): ControlRoomContextValue {
  const value = useContext(ControlRoomContext);
  if (!value) throw new Error('Failed to read the control room: useControlRoom must be used inside <ControlRoomProvider>');
  return value;
}

/** Select a slice of the control room state; re-renders only when the slice changes. */
export function useControlRoom<T>(selector: (state: ControlRoomState) => T): T {
  return useStore(useControlRoomContext().store, selector);
}
