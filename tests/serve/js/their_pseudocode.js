// Test only (tests/serve/test_composite.py): runs ScratchWorld's own get_blocks_pseudocode.js, read
// from their checkout, in a page of scratch-gym's editor, to compare its answer with scratch-gym's.
// Their scripts find the VM and the workspace as globals of their GUI build: lend them.
async ({vm, ws}) => {
  window.vm = window.vm || vm;
  const Blockly = {getMainWorkspace: () => ws}; // eslint-disable-line no-unused-vars
  /*COMMON*/
  return (/*SCRIPT*/)();
}
