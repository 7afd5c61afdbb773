import { findProjectDir } from "../session/project.ts";

export async function run(): Promise<number> {
  const { runHome } = await import("../tui/home-app.ts");
  return runHome(findProjectDir());
}
