/**
 * The side panels of the inspector page, in one place so the page does not depend on where
 * each panel lives. Each is rendered without props inside <InspectorProvider>.
 */
export { ToolsPanel } from '@/components/tools/ToolsPanel';
export { TasksPanel } from '@/components/tasks/TasksPanel';
export { StreamsPanel } from '@/components/streams/StreamsPanel';
export { ResourcesPanel } from '@/components/resources/ResourcesPanel';
export { PromptsPanel } from '@/components/prompts/PromptsPanel';
export { ServerOutputBadge, ServerOutputPanel } from '@/components/output/ServerOutputPanel';
