/** The page's style sheet, imported `with { type: "text" }`, is embedded in the binary as a string. */
declare module "*.css" {
  const content: string;
  export default content;
}
