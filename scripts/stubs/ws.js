// Ink's devtools polyfill hands ws to React's devtools, which the production bundle stubs: nothing
// would ever open the socket, and ws would leave two optional native add-ons for Node to look for.
const WebSocket = undefined;
export default WebSocket;
