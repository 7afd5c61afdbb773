/** YAML files imported `with { type: "text" }` (assets/config.yaml) are embedded in the binary as strings. */
declare module "*.yaml" {
  const content: string;
  export default content;
}
