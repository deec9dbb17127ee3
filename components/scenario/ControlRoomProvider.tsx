'use client';

import { createContext, useState, type ReactNode } from 'react';
import { createControlClient, type ControlClient } from '@/lib/client/control-client';
import { createControlRoomStore, type ControlRoomStore } from '@/lib/state/control-room-store';

/** The store and control API client of one control room (one per mounted page). */
export interface ControlRoomContextValue {
  store: ControlRoomStore;
  client: ControlClient;
  scenarioId: string;
}

/** The enclosing control room; read it with `useControlRoomContext` (use-control-room.ts), which throws outside one. */
export const ControlRoomContext = createContext<ControlRoomContextValue | null>(null);

/** Creates the scenario's store once per mount; children read it through the `use-*` hooks. */
export function ControlRoomProvider({ scenarioId, children }: { scenarioId: string; children: ReactNode }) {
  const [value] = useState<ControlRoomContextValue>(() => ({ store: createControlRoomStore(scenarioId), client: createControlClient(), scenarioId }));
  return <ControlRoomContext.Provider value={value}>{children}</ControlRoomContext.Provider>;
}
