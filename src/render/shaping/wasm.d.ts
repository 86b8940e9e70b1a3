// WebAssembly imported as a wrangler CompiledWasm module (wrangler's default rule for *.wasm):
// already compiled, since a Worker may not compile WebAssembly from bytes at run time.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
