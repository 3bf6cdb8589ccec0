/**
 * ES modules get a `require` with `const require = createRequire(import.meta.url)`. Once babel
 * turns such a module into CommonJS, `require` already exists and that line would shadow it
 * (the module's own imports would then hit it before it is initialised), so it is dropped.
 */
module.exports = function dropCreateRequire() {
  return {
    visitor: {
      VariableDeclarator(path) {
        const { id, init } = path.node;
        const isCreateRequire =
          init && init.type === 'CallExpression' && init.callee.name === 'createRequire';
        if (id.type === 'Identifier' && id.name === 'require' && isCreateRequire) path.remove();
      },
    },
  };
};
