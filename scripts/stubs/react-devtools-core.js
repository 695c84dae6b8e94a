// Ink imports React's devtools for development sessions only; the production bundle gets this stub.
const devtools = {initialize() {}, connectToDevTools() {}};
export default devtools;
