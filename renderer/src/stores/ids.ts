/** Store ids (soybean's StoreId enum). */
export enum StoreId {
  Session = 'session',
  Prefs = 'prefs',
  Reference = 'reference',
}
