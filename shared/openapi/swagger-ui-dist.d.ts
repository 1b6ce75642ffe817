// swagger-ui-dist ships no types; this is the one module of it the docs function imports.
declare module 'swagger-ui-dist/absolute-path.js' {
  /** The folder that holds swagger-ui-dist's files: the package's, or the bundle's once esbuild inlined this. */
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
