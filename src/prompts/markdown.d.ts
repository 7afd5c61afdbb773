/** Markdown files imported `with { type: "text" }` are embedded in the binary as strings. */
declare module "*.md" {
  const content: string;
  export default content;
}
