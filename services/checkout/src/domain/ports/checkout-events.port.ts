/**
 * What the domain tells the outside after a write that carried events: the events are stored
 * on the checkout's document already, so this only says "publish them now" (the relay would
 * find them at its next poll anyway). Keeps the use cases free of the relay.
 */
export interface CheckoutEventsPort {
  written(): void;
}
