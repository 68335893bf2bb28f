// Stylesheets are imported as text (`with { type: "text" }`) and put into one <style> by main.ts.
declare module "*.css" {
  const text: string;
  export default text;
}
