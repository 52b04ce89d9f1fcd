/** A signed-in person's own delivery settings, under the alerts (issue 34). */
export const enDeliverySettings = {
  panel: 'Delivery settings',
  heading: 'Your delivery settings',
  form: 'Your delivery settings',
  emailTo: 'E-mail goes to',
  noAddress: 'no address known for your sign-in',
  sendEmail: 'Send me e-mail',
  digest: 'Daily digest',
  none: 'None',
  timeZone: 'Time zone (IANA, e.g. Europe/Berlin)',
  quiet: 'Quiet hours (only a rise into the top tier reaches me then)',
  from: 'From',
  until: 'until',
  saved: 'Saved.',
  save: 'Save settings',
} as const;
