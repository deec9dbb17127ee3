/**
 * The file a "New scenario" starts from: the smallest scenario that is useful at once (one tool
 * a client can call) and shows the shape of the rest, so the author edits rather than starts
 * from a blank page. A unit test keeps it valid against the schema.
 */
export function newScenarioYaml(id: string): string {
  return `# Served at POST /mcp/${id}. Edit, then Save: the mock restarts with the new file.
id: ${id}
name: ${id}
description: A new scenario
server:
  name: ${id}
  version: 0.1.0
tools:
  - name: echo
    description: Answers with the text it was given.
    inputSchema:
      type: object
      properties:
        text: { type: string }
      required: [text]
    result:
      content: [{ type: text, text: "{{args.text}}" }]
`;
}
