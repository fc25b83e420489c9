extension PersonText {
  /// The Italian catalogue: each English template written in the services' code (see
  /// ``PersonText``), and its Italian. `%@` takes the arguments in order; `%2$@` reorders.
  /// `scripts/check-person-texts.py` keeps it complete.
  static let italian: [String: String] = [
    "\"%@\" is not a category":
      "\"%@\" non è una categoria",
    "\"%@\" is not a currency code":
      "\"%@\" non è un codice di valuta",
    "\"%@\" is not a date":
      "\"%@\" non è una data",
    "\"%@\" is not a date (expected YYYY-MM-DD)":
      "\"%@\" non è una data (atteso AAAA-MM-GG)",
    "\"%@\" is not a field that changes: %@":
      "\"%@\" non è un campo che si può cambiare: %@",
    "\"%@\" is not a language the suite speaks (it or en)":
      "\"%@\" non è una lingua che il servizio parla (it o en)",
    "\"%@\" is not a number":
      "\"%@\" non è un numero",
    "\"%@\" is not a zone range (e.g. %@-%@)":
      "\"%@\" non è un intervallo di zone (ad es. %@-%@)",
    "\"%@\" is not an email address (expected name@example.com)":
      "\"%@\" non è un indirizzo email (atteso nome@esempio.it)",
    "\"%@\" is not an international phone number (expected + and the digits, e.g. +393331234567)":
      "\"%@\" non è un numero di telefono internazionale (atteso + e le cifre, ad es. +393331234567)",
    "\"%@\" is not in the list (GetSubscriptionOptions); set custom_service_name for another":
      "\"%@\" non è nell'elenco (GetSubscriptionOptions); imposta custom_service_name per un altro",
    "\"%@\" is not one of %@; set custom_plan_type for another":
      "\"%@\" non è tra %@; imposta custom_plan_type per un altro",
    "\"%@\" is not true or false":
      "\"%@\" non è true né false",
    "\"it\" or \"en\"":
      "\"it\" o \"en\"",
    "\"it\", \"en\", or empty for yours":
      "\"it\", \"en\" o vuoto per la tua",
    "\"protobuf\" or \"json\"":
      "\"protobuf\" o \"json\"",
    "%@ %@ to %@":
      "%@ %@ per %@",
    "%@ %@ to %@ no longer runs on %@":
      "Il %@ %@ per %@ del %4$@ non circola più",
    "%@ %@ to %@ on %@: new times":
      "%@ %@ per %@ del %@: nuovi orari",
    "%@ Note: %@ %@":
      "%@ Nota: %@ %@",
    "%@ Your share is now %@.":
      "%@ La tua quota ora è %@.",
    "%@ accepted your friend request":
      "%@ ha accettato la tua richiesta di amicizia",
    "%@ added you on Binario":
      "%@ ti ha aggiunto su Binario",
    "%@ answered HTTP %@":
      "%@ ha risposto HTTP %@",
    "%@ answered the same page twice: does it ignore $offset?":
      "%@ ha risposto due volte con la stessa pagina: ignora $offset?",
    "%@ asked to be your friend":
      "%@ ti ha chiesto l'amicizia",
    "%@ changed":
      "%@ è cambiato",
    "%@ deals near you":
      "%@ offerte vicino a te",
    "%@ declined %@":
      "%@ ha rifiutato %@",
    "%@ does not call at %@":
      "%@ non ferma a %@",
    "%@ does not call at %@ after %@":
      "%@ non ferma a %@ dopo %@",
    "%@ ended OK without an answer":
      "%@ è terminato senza errori ma senza risposta",
    "%@ ends at %@":
      "%@ termina a %@",
    "%@ ends on %@: nothing is due after that day":
      "%@ termina il %@: dopo quel giorno non c'è nulla da pagare",
    "%@ fills its gaps from %@, which is not a source":
      "%@ colma le sue lacune da %@, che non è una fonte",
    "%@ has already asked you; accept their request instead":
      "%@ te l'ha già chiesto; accetta invece la sua richiesta",
    "%@ has already left %@":
      "%@ è già partito da %@",
    "%@ has ended":
      "%@ è terminato",
    "%@ has no event %@":
      "%@ non ha la tappa %@",
    "%@ has no expense %@":
      "%@ non ha la spesa %@",
    "%@ has no extension %@ here":
      "%@ non ha l'estensione %@ qui",
    "%@ has no invite %@":
      "%@ non ha l'invito %@",
    "%@ has no times at these stops":
      "%@ non ha orari a queste fermate",
    "%@ invited you to %@":
      "%@ ti ha invitato a %@",
    "%@ is %@ minutes late":
      "%@ ha %@ minuti di ritardo",
    "%@ is already verified":
      "%@ è già verificato",
    "%@ is an admin; revoke the admin role first":
      "%@ è un amministratore; revoca prima il ruolo di amministratore",
    "%@ is back on time":
      "%@ è di nuovo in orario",
    "%@ is cancelled":
      "%@ è soppresso",
    "%@ is cancelled between %@ and %@":
      "%@ è soppresso tra %@ e %@",
    "%@ is cancelled: it ends on %@":
      "%@ è disdetto: termina il %@",
    "%@ is due in %@ days (%@)":
      "%@ scade tra %@ giorni (%@)",
    "%@ is due today":
      "%@ scade oggi",
    "%@ is due tomorrow":
      "%@ scade domani",
    "%@ is in the future":
      "%@ è nel futuro",
    "%@ is internal to the services; the gateway does not forward it":
      "%@ è interno ai servizi; il gateway non lo inoltra",
    "%@ is longer than %@ characters":
      "%@: più di %@ caratteri",
    "%@ is neither a friend nor one of your contacts; add them as a contact first":
      "%@ non è né un amico né uno dei tuoi contatti; aggiungilo prima come contatto",
    "%@ is no longer shared with you":
      "%@ non è più condiviso con te",
    "%@ is not a driver; only driver accounts are deleted here":
      "%@ non è un tassista; qui si eliminano solo account di tassisti",
    "%@ is not a latitude (-90 to 90 degrees)":
      "%@ non è una latitudine (da -90 a 90 gradi)",
    "%@ is not a longitude (-180 to 180 degrees)":
      "%@ non è una longitudine (da -180 a 180 gradi)",
    "%@ is not a method of any service here":
      "%@ non è un metodo di alcun servizio qui",
    "%@ is not among your friends":
      "%@ non è tra i tuoi amici",
    "%@ is not geo-offers demo data: %@":
      "%@ non sono dati dimostrativi di geo-offers: %@",
    "%@ is not on board: take them on with their code, or mark them absent":
      "%@ non è a bordo: fallo salire con il suo codice, oppure segnalalo assente",
    "%@ is not on the trip":
      "%@ non è nel viaggio",
    "%@ is not your friend: a subscription is shared with friends only":
      "%@ non è tuo amico: un abbonamento si condivide solo con gli amici",
    "%@ is on board already":
      "%@ è già a bordo",
    "%@ is overdue since %@":
      "%@ è scaduto dal %@",
    "%@ is paused: resume it first":
      "%@ è in pausa: riattivalo prima",
    "%@ is required":
      "serve %@",
    "%@ is set in the service's settings (--reference-sources); change it there":
      "%@ è impostato nella configurazione del servizio (--reference-sources); cambialo lì",
    "%@ is set in the service's settings (--reference-sources); remove it there":
      "%@ è impostato nella configurazione del servizio (--reference-sources); rimuovilo lì",
    "%@ is shared with one person fewer":
      "%@ è condiviso con una persona in meno",
    "%@ is the last admin; make someone else admin before revoking this role":
      "%@ è l'ultimo amministratore; nomina un altro amministratore prima di revocare questo ruolo",
    "%@ joined %@":
      "%@ si è unito a %@",
    "%@ joined Binario":
      "%@ si è iscritto a Binario",
    "%@ km is beyond the fare table's distance bands":
      "%@ km è oltre le fasce di distanza della tabella tariffaria",
    "%@ leaves %@ minutes early":
      "%@ parte con %@ minuti di anticipo",
    "%@ left %@":
      "%@ ha lasciato %@",
    "%@ m is not a radius (more than 0, at most %@ m)":
      "%@ m non è un raggio (più di 0, al massimo %@ m)",
    "%@ m is not an accuracy (0 to 100000 m; 0: unknown)":
      "%@ m non è una precisione (da 0 a 100000 m; 0: sconosciuta)",
    "%@ needs a signed-in caller; send authorization: Bearer <access token>":
      "%@ richiede l'accesso; invia authorization: Bearer <access token>",
    "%@ needs the %@ role":
      "%@ richiede il ruolo %@",
    "%@ other passenger(s) now share your taxi at %@; your share is %@ (never more than riding alone, %@).":
      "Ora %@ altri passeggeri condividono il tuo taxi delle %@; la tua quota è %@ (mai più che viaggiando da solo, %@).",
    "%@ read %@ %@.":
      "%@ ha misurato %@ %@.",
    "%@ renews automatically: its payments are recorded by themselves":
      "%@ si rinnova automaticamente: i suoi pagamenti si registrano da soli",
    "%@ renews in %@ days (%@)":
      "%@ si rinnova tra %@ giorni (%@)",
    "%@ renews today":
      "%@ si rinnova oggi",
    "%@ renews tomorrow":
      "%@ si rinnova domani",
    "%@ stations: ask for 1 to 20 (0: 3)":
      "%@ stazioni: chiedine da 1 a 20 (0: 3)",
    "%@ takes %@":
      "%@ accetta %@",
    "%@ takes a device token: send authorization: Device <token>":
      "%@ richiede un token di dispositivo: invia authorization: Device <token>",
    "%@ was cancelled":
      "%@ è stato annullato",
    "%@ was charged to your card ending %@: the taxi was already on its way.":
      "%@ addebitati sulla tua carta che termina con %@: il taxi era già in viaggio.",
    "%@ was due yesterday":
      "%@ era da pagare ieri",
    "%@ → %@ via %@":
      "%@ → %@ via %@",
    "%@%% is not a discount (1 to 100)":
      "%@%% non è uno sconto (da 1 a 100)",
    "%@%% off at %@":
      "sconto del %@%% da %@",
    "%@, %@ away":
      "%@, a %@",
    "%@, %@, %@, %@ km":
      "%@, %@, %@, %@ km",
    "%@. Arrives at %@ at %@ instead of %@.":
      "%@. Arriva a %@ alle %@ anziché alle %@.",
    "%@. At %@: %@":
      "%@. A %@: %@",
    "%@. It no longer reaches %@.":
      "%@. Non arriva più a %@.",
    "%@. Leaves %@ at %@ instead of %@.":
      "%@. Parte da %@ alle %@ invece che alle %@.",
    "%@: %@ above %@ %@":
      "%@: %@ sopra %@ %@",
    "%@: %@ added":
      "%@: aggiunta la tappa %@",
    "%@: %@ changed":
      "%@: modificata la tappa %@",
    "%@: %@ has gone silent":
      "%@: %@ non trasmette più",
    "%@: %@ paid %@ for %@":
      "%@: %@ ha pagato %@ per %@",
    "%@: %@ paid %@ to settle up":
      "%@: %@ ha pagato %@ per saldare i conti",
    "%@: %@ removed":
      "%@: rimossa la tappa %@",
    "%@: %@, %@ to %@.":
      "%@: %@, dal %@ al %@.",
    "%@: platform %@ at %@":
      "%@: binario %@ a %@",
    "%@: the address \"%@\" is not known; give a position (latitude and longitude) instead":
      "%@: l'indirizzo \"%@\" non è noto; indica invece una posizione (latitudine e longitudine)",
    "%@: the expense %@ was removed":
      "%@: la spesa %@ è stata tolta",
    "%@; and %@ more":
      "%@; e altre %@",
    "%@; sign in again":
      "%@; accedi di nuovo",
    "%@; try again after %@":
      "%@; riprova dopo %@",
    "1 to 10 passengers":
      "da 1 a 10 passeggeri",
    "1 to 60 letters, digits, - or _":
      "da 1 a 60 lettere, cifre, - o _",
    "1st class":
      "1ª classe",
    "2nd class":
      "2ª classe",
    "A member left %@":
      "Un membro ha lasciato %@",
    "A public board in the area read %@ %@.":
      "Una centralina pubblica nella zona ha misurato %@ %@.",
    "A trip to %@, %@ to %@.":
      "Un viaggio a %@, dal %@ al %@.",
    "Accept their friend request to see their invite to a trip.":
      "Accetta la sua richiesta di amicizia per vedere il suo invito a un viaggio.",
    "Avoid physical activity outdoors.":
      "Evita l'attività fisica all'aperto.",
    "Binario counts weekly, monthly, quarterly or yearly payments, not \"%@\"":
      "Binario conta pagamenti settimanali, mensili, trimestrali o annuali, non \"%@\"",
    "Binario: your phone verification code is %@. It is valid for %@ minutes.":
      "Binario: il tuo codice di verifica del telefono è %@. È valido per %@ minuti.",
    "Cancellation fee: %@":
      "Penale di cancellazione: %@",
    "Carnet of %@ rides, %@":
      "Carnet di %@ corse, %@",
    "Consider doing less physical activity, above all outdoors and if you have symptoms.":
      "Valuta di ridurre l'attività fisica, soprattutto all'aperto e se hai sintomi.",
    "Do less physical activity outdoors.":
      "Riduci l'attività fisica all'aperto.",
    "Do less physical activity, above all outdoors and if you have symptoms.":
      "Riduci l'attività fisica, soprattutto all'aperto e se hai sintomi.",
    "EMERGENCY: %@ needs help.":
      "EMERGENZA: %@ ha bisogno di aiuto.",
    "EMERGENCY: someone needs help.":
      "EMERGENZA: qualcuno ha bisogno di aiuto.",
    "Emergency services":
      "Servizi di emergenza",
    "Enjoy your usual outdoor activities.":
      "Goditi le tue solite attività all'aperto.",
    "Every taxi near %@ is busy or declined; we keep asking, further afield, until %@. Nothing is charged until a driver accepts.":
      "Tutti i taxi vicino a %@ sono occupati o hanno rifiutato; continuiamo a chiedere, anche più lontano, fino alle %@. Non paghi nulla finché un tassista non accetta.",
    "Extremely poor":
      "Estremamente scadente",
    "Fair":
      "Discreta",
    "Finding you another taxi":
      "Ti stiamo cercando un altro taxi",
    "For your %@ reservation from %@: we are asking the taxis nearby now. Your code for the driver: %@.":
      "Per la tua prenotazione delle %@ da %@: stiamo chiedendo ora ai taxi vicini. Il tuo codice per il tassista: %@.",
    "Good":
      "Buona",
    "Hello %@,\n\n%@ (%@) saved you as a friend on Binario, to plan trips and share subscriptions together.\nSign up with this address and you will be friends straight away.\n\nIf you do not know them, ignore this message.":
      "Ciao %@,\n\n%@ (%@) ti ha salvato come amico su Binario, per organizzare viaggi e condividere abbonamenti insieme.\nRegistrati con questo indirizzo e sarete subito amici.\n\nSe non conosci questa persona, ignora questo messaggio.",
    "Hello %@,\n\nto choose a new password, open this link within %@ minutes:\n%@?token=%@\n\nThe link works once. Setting a new password signs you out everywhere.\nIf you did not ask for it, ignore this message: your password stays as it is.":
      "Ciao %@,\n\nper scegliere una nuova password, apri questo link entro %@ minuti:\n%@?token=%@\n\nIl link funziona una sola volta. Impostare una nuova password ti disconnette ovunque.\nSe non l'hai chiesto tu, ignora questo messaggio: la tua password resta com'è.",
    "Hello %@,\n\nyour Binario confirmation code is %@. It confirms the address %@ and is valid for %@ hours.\n\nIf you did not ask for it, ignore this message.":
      "Ciao %@,\n\nil tuo codice di conferma Binario è %@. Conferma l'indirizzo %@ ed è valido per %@ ore.\n\nSe non l'hai chiesto tu, ignora questo messaggio.",
    "If you have symptoms, consider doing less intense activity outdoors.":
      "Se hai sintomi, valuta di ridurre le attività intense all'aperto.",
    "If your eyes, throat or chest feel irritated, consider doing less intense activity outdoors.":
      "Se senti irritazione a occhi, gola o petto, valuta di ridurre le attività intense all'aperto.",
    "It was taken out of the timetable.":
      "È stato tolto dall'orario.",
    "Its organiser left Binario, so the trip to %@ is no longer planned.":
      "Il suo organizzatore ha lasciato Binario, quindi il viaggio a %@ non è più in programma.",
    "Its owner left Binario, so you no longer share %@ (%@).":
      "Il titolare ha lasciato Binario, quindi non condividi più %@ (%@).",
    "Its stops changed.":
      "Le sue fermate sono cambiate.",
    "Leaves %@ %@, arrives %@ %@.":
      "Parte da %@ alle %@, arriva a %@ alle %@.",
    "Moderate":
      "Moderata",
    "Monthly pass %@ from %@":
      "Abbonamento mensile %@ dal %@",
    "More than 50 km from a station":
      "Oltre 50 km da una stazione",
    "New job for taxi %@":
      "Nuova corsa per il taxi %@",
    "No taxi for a request":
      "Nessun taxi per una richiesta",
    "No taxi found":
      "Nessun taxi trovato",
    "No taxi near %@ could take your ride; nothing was charged. Please try again in a few minutes.":
      "Nessun taxi vicino a %@ ha potuto prendere la tua corsa; non ti è stato addebitato nulla. Riprova tra qualche minuto.",
    "Nothing has come from it for %@ minutes.":
      "Non ne arriva nulla da %@ minuti.",
    "Now leaving from platform %@. %@.":
      "Ora parte dal binario %@. %@.",
    "PM0.5":
      "PM0.5",
    "PM1":
      "PM1",
    "PM10":
      "PM10",
    "PM2.5":
      "PM2.5",
    "PM4":
      "PM4",
    "Poor":
      "Scadente",
    "Position unknown: their device could not tell it.":
      "Posizione sconosciuta: il suo dispositivo non ha saputo indicarla.",
    "Position: %@":
      "Posizione: %@",
    "Receipt: %@":
      "Ricevuta: %@",
    "Reservation cancelled":
      "Prenotazione annullata",
    "Reset your Binario password":
      "Reimposta la tua password Binario",
    "Ride %@ in %@ found no taxi in %@ rounds of asking.":
      "La corsa %@ in %@ non ha trovato taxi in %@ giri di richieste.",
    "Ride cancelled":
      "Corsa annullata",
    "Ride update":
      "Aggiornamento della corsa",
    "Someone you are no longer friends with is no longer part of the trip to %@.":
      "Una persona con cui non sei più amico non fa più parte del viaggio a %@.",
    "Someone you are no longer friends with no longer shares it.":
      "Una persona con cui non sei più amico non lo condivide più.",
    "Someone you shared it with left Binario.":
      "Una persona con cui lo condividevi ha lasciato Binario.",
    "Still looking for a taxi":
      "Stiamo ancora cercando un taxi",
    "TVOC":
      "TVOC",
    "Taxi %@ (%@) is waiting at %@. Your code: %@.":
      "Il taxi %@ (%@) ti aspetta a %@. Il tuo codice: %@.",
    "Taxi %@ (%@) will be at %@ at about %@. Your code for the driver: %@.":
      "Il taxi %@ (%@) sarà a %@ verso le %@. Il tuo codice per il tassista: %@.",
    "Taxi %@ gave up a job":
      "Il taxi %@ ha rinunciato a una corsa",
    "Taxi %@ gave up ride %@ at %@: %@. It was offered again.":
      "Il taxi %@ ha rinunciato alla corsa %@ in %@: %@. È stata offerta di nuovo.",
    "Taxi %@ is delayed; it should now reach you at about %@.":
      "Il taxi %@ è in ritardo; ora dovrebbe raggiungerti verso le %@.",
    "Taxi %@ is not answering":
      "Il taxi %@ non risponde",
    "Taxi %@ is on its way":
      "Il taxi %@ sta arrivando",
    "Taxi %@ is silent":
      "Il taxi %@ è silenzioso",
    "Taxi %@ let %@ offers in a row time out; it was made unavailable until its driver is back.":
      "Il taxi %@ ha lasciato scadere %@ offerte di fila; è stato reso non disponibile finché il tassista non torna.",
    "Taxi %@ waited for you at %@ and has left; the cancellation fee applies.":
      "Il taxi %@ ti ha aspettato in %@ ed è ripartito; si applica la penale di cancellazione.",
    "Taxi %@ went out of service during your ride; you pay only the distance driven.":
      "Il taxi %@ è andato fuori servizio durante la corsa; paghi solo la distanza percorsa.",
    "Taxi %@, on ride %@, has not reported its position for %@ minutes.":
      "Il taxi %@, nella corsa %@, non comunica la sua posizione da %@ minuti.",
    "The air is good: enjoy your usual outdoor activities.":
      "L'aria è buona: goditi le tue solite attività all'aperto.",
    "The driver of taxi %@ cannot come to %@; we are offering your ride to another taxi now.":
      "Il tassista del taxi %@ non può venire in %@; stiamo offrendo subito la tua corsa a un altro taxi.",
    "The organiser deleted the trip to %@.":
      "L'organizzatore ha eliminato il viaggio a %@.",
    "The organiser removed you from the trip to %@.":
      "L'organizzatore ti ha tolto dal viaggio a %@.",
    "The passenger at %@ cancelled; you are back in the queue.":
      "Il passeggero a %@ ha annullato; sei di nuovo in coda.",
    "The taxi on its way to %@ is out of service; we are offering your ride to another one.":
      "Il taxi diretto a %@ è fuori servizio; stiamo offrendo la tua corsa a un altro.",
    "Then %@ %@, your share %@: cancel it before if you do not want to keep it.":
      "Poi %@ %@, la tua quota %@: disdici prima se non vuoi tenerlo.",
    "They declined your friend request, so your invite to the trip to %@ was declined with it.":
      "Ha rifiutato la tua richiesta di amicizia, quindi anche il tuo invito al viaggio a %@ è stato rifiutato.",
    "Very poor":
      "Molto scadente",
    "Welcome to %@":
      "Benvenuto in %@",
    "Welcome to %@ — %@ %@ %@":
      "Benvenuto a %@ — %@ %@ %@",
    "Yearly pass %@ from %@":
      "Abbonamento annuale %@ dal %@",
    "You and its organiser are no longer friends, so you are no longer part of the trip to %@.":
      "Tu e il suo organizzatore non siete più amici, quindi non fai più parte del viaggio a %@.",
    "You and its owner are no longer friends, so %@ is no longer shared with you.":
      "Tu e il titolare non siete più amici, quindi %@ non è più condiviso con te.",
    "You are no longer on %@":
      "Non fai più parte di %@",
    "You are the only one in your shared taxi at %@ for now; your fare is %@.":
      "Per ora sei l'unico nel tuo taxi condiviso delle %@; la tua tariffa è %@.",
    "You left %@":
      "Hai lasciato %@",
    "You no longer share %@":
      "Non condividi più %@",
    "You were marked absent":
      "Sei stato segnalato come assente",
    "Your Binario confirmation code: %@":
      "Il tuo codice di conferma Binario: %@",
    "Your free trial of %@ ends in %@ days (%@)":
      "La tua prova gratuita di %@ termina tra %@ giorni (%@)",
    "Your free trial of %@ ends today":
      "La tua prova gratuita di %@ termina oggi",
    "Your free trial of %@ ends tomorrow":
      "La tua prova gratuita di %@ termina domani",
    "Your friend":
      "Il tuo amico",
    "Your invite to %@ is now theirs to answer.":
      "Ora può rispondere al tuo invito a %@.",
    "Your invite to %@ now waits for their answer.":
      "Il tuo invito a %@ ora attende la sua risposta.",
    "Your invite to %@ was withdrawn":
      "Il tuo invito a %@ è stato ritirato",
    "Your ride %@ is %@.":
      "La tua corsa %@ è %@.",
    "Your ride from %@ was cancelled without charge: your account is suspended.":
      "La tua corsa da %@ è stata annullata senza addebito: il tuo account è sospeso.",
    "Your ride has ended":
      "La tua corsa è terminata",
    "Your share of the shared taxi %@: %@ charged to your card ending %@.":
      "La tua quota del taxi condiviso %@: %@ addebitati sulla tua carta che termina con %@.",
    "Your share: %@. %@.":
      "La tua quota: %@. %@.",
    "Your share: %@. Mark it paid once it is.":
      "La tua quota: %@. Segnalo come pagato quando lo è.",
    "Your shared taxi: %@":
      "Il tuo taxi condiviso: %@",
    "Your taxi at %@ was cancelled without charge: your account is suspended.":
      "Il tuo taxi delle %@ è stato annullato senza addebito: il tuo account è sospeso.",
    "Your taxi is being allocated":
      "Stiamo assegnando il tuo taxi",
    "Your taxi is here":
      "Il tuo taxi è arrivato",
    "Your taxi is late":
      "Il tuo taxi è in ritardo",
    "Your taxi ride %@, %@ km: %@ charged to your card ending %@.":
      "La tua corsa in taxi %@, %@ km: %@ addebitati sulla tua carta che termina con %@.",
    "Zone ticket %@, one ride of %@ minutes":
      "Biglietto a zone %@, una corsa di %@ minuti",
    "a GeoJSON catalogue is a FeatureCollection":
      "un catalogo GeoJSON è una FeatureCollection",
    "a batch holds at most %@ readings; send the rest in another":
      "un lotto contiene al massimo %@ letture; invia le altre in un altro",
    "a birth date is required":
      "serve una data di nascita",
    "a boolean is malformed":
      "un booleano non è valido",
    "a calibration fits particulate matter: pick a station's PM2.5 or PM10 sensor":
      "una calibrazione riguarda il particolato: scegli il sensore PM2.5 o PM10 di una stazione",
    "a calibration is one board's: pick the board":
      "una calibrazione è di una sola centralina: scegli la centralina",
    "a campaign name":
      "un nome di campagna",
    "a card number is 12 to 19 digits":
      "un numero di carta ha da 12 a 19 cifre",
    "a card number is required":
      "serve un numero di carta",
    "a category is required":
      "serve una categoria",
    "a code was sent to %@ moments ago":
      "un codice è stato inviato a %@ pochi istanti fa",
    "a contact id":
      "un id di contatto",
    "a date YYYY-MM-DD from today to 60 days ahead":
      "una data AAAA-MM-GG da oggi a 60 giorni da oggi",
    "a date YYYY-MM-DD is required":
      "serve una data AAAA-MM-GG",
    "a date YYYY-MM-DD, or nothing":
      "una data AAAA-MM-GG, o niente",
    "a date YYYY-MM-DD, or nothing for today":
      "una data AAAA-MM-GG, o niente per oggi",
    "a date as YYYY-MM-DD, not \"%@\"":
      "una data come AAAA-MM-GG, non \"%@\"",
    "a dedupe key":
      "una chiave di deduplicazione",
    "a delay is 1 to 120 minutes":
      "un ritardo va da 1 a 120 minuti",
    "a destination":
      "una destinazione",
    "a device id is required":
      "serve un id di dispositivo",
    "a device name":
      "un nome di dispositivo",
    "a device token only uploads its device's readings; %@ needs authorization: Bearer <access token>":
      "un token di dispositivo carica solo le letture del suo dispositivo; %@ richiede authorization: Bearer <access token>",
    "a digit":
      "una cifra",
    "a file of at most 1 MB":
      "un file di al massimo 1 MB",
    "a first name":
      "un nome",
    "a free trial ends on or after the start date":
      "una prova gratuita termina alla data di inizio o dopo",
    "a grid has 1 to %@ cells (rows × columns)":
      "una griglia ha da 1 a %@ celle (righe × colonne)",
    "a letter":
      "una lettera",
    "a line":
      "una linea",
    "a link to the open-data portal, https://www.dati.lombardia.it/…":
      "un collegamento al portale open data, https://www.dati.lombardia.it/…",
    "a listing spans at most %@ days":
      "un elenco copre al massimo %@ giorni",
    "a meeting time is required":
      "serve un orario d'incontro",
    "a message does not decode: %@":
      "un messaggio non si decodifica: %@",
    "a name":
      "un nome",
    "a notice id":
      "l'id di un avviso",
    "a number is malformed":
      "un numero non è valido",
    "a page holds 1 to %@ items (0 for %@); %@ is not a page size":
      "una pagina contiene da 1 a %@ elementi (0 per %@); %@ non è una dimensione di pagina",
    "a part cannot be negative":
      "una parte non può essere negativa",
    "a pass bought in the wallet changes with its ticket: refund the ticket instead":
      "un abbonamento acquistato nel portafoglio cambia con il suo biglietto: rimborsa invece il biglietto",
    "a pass is paid when it is bought":
      "un abbonamento si paga quando lo si acquista",
    "a pass is personal: one passenger":
      "un abbonamento è personale: un solo passeggero",
    "a passenger is on board; complete the ride instead":
      "un passeggero è a bordo; concludi invece la corsa",
    "a password is required":
      "serve una password",
    "a payment cannot be recorded in the future":
      "non si può registrare un pagamento nel futuro",
    "a payment method id":
      "un id di metodo di pagamento",
    "a payment method on file (add a card with AddPaymentMethod)":
      "un metodo di pagamento registrato (aggiungi una carta con AddPaymentMethod)",
    "a person cannot befriend themselves":
      "una persona non può fare amicizia con sé stessa",
    "a phone number is required":
      "serve un numero di telefono",
    "a pickup position or address is required":
      "serve una posizione o un indirizzo di partenza",
    "a plate":
      "una targa",
    "a position is required":
      "serve una posizione",
    "a quote id":
      "un id di preventivo",
    "a range from the first zone, e.g. %@-%@":
      "un intervallo dalla prima zona, ad es. %@-%@",
    "a range with %@ covers %@ at least":
      "un intervallo con %@ copre almeno %@",
    "a reason":
      "un motivo",
    "a refresh token is required":
      "serve un refresh token",
    "a report cannot be from the future":
      "una segnalazione non può venire dal futuro",
    "a request id":
      "un id di richiesta",
    "a request takes 1 to %@ passengers; a party larger than a taxi gets several taxis":
      "una richiesta va da 1 a %@ passeggeri; un gruppo più grande di un taxi riceve più taxi",
    "a reservation is made at least %@ minutes ahead":
      "una prenotazione si fa con almeno %@ minuti di anticipo",
    "a reservation needs a destination":
      "una prenotazione richiede una destinazione",
    "a reserved taxi takes 1 to %@ passengers":
      "un taxi prenotato porta da 1 a %@ passeggeri",
    "a run has at least two stops":
      "una corsa ha almeno due fermate",
    "a series has 1 to %@ points":
      "una serie ha da 1 a %@ punti",
    "a service name":
      "un nome di servizio",
    "a settlement is paid to one other person":
      "un saldo si paga a un'altra persona",
    "a silence alert watches your boards or one board, not an area":
      "un avviso di silenzio controlla le tue centraline o una centralina, non una zona",
    "a station catalogue in JSON is an array of rows":
      "un catalogo di stazioni in JSON è un array di righe",
    "a station id":
      "un id di stazione",
    "a station id is required":
      "serve un id di stazione",
    "a station ticket, zone ticket, carnet or pass is required":
      "serve un biglietto di tratta, un biglietto a zone, un carnet o un abbonamento",
    "a string is malformed":
      "una stringa non è valida",
    "a subscription ends on or after its start date (%@)":
      "un abbonamento termina alla sua data di inizio o dopo (%@)",
    "a subscription id is required":
      "serve un id di abbonamento",
    "a taxi code":
      "un codice taxi",
    "a taxi seats 1 to 8 passengers":
      "un taxi porta da 1 a 8 passeggeri",
    "a ticket id is required":
      "serve un id di biglietto",
    "a time as HH:MM (past 24:00 after midnight)":
      "un orario come HH:MM (oltre 24:00 dopo mezzanotte)",
    "a title":
      "un titolo",
    "a title in Italian or English":
      "un titolo in italiano o in inglese",
    "a topic (train changes, deals, welcomes, tickets, trips or taxi)":
      "un argomento (variazioni dei treni, offerte, benvenuti, biglietti, viaggi o taxi)",
    "a train is required":
      "serve un treno",
    "a train number":
      "un numero di treno",
    "a trip id":
      "un id di corsa",
    "a trip id is required":
      "serve un id di corsa",
    "a user id":
      "un id utente",
    "a user id is required":
      "serve un id utente",
    "a verified phone (add one with UpdateMe and confirm it with VerifyPhone)":
      "un telefono verificato (aggiungilo con UpdateMe e confermalo con VerifyPhone)",
    "a web push device's token is the browser's PushSubscription as JSON":
      "il token di un dispositivo web push è la PushSubscription del browser in JSON",
    "a window: departing_after, then a later departing_before":
      "una finestra: departing_after, poi un departing_before successivo",
    "a zone id is required":
      "serve un id di zona",
    "a zone needs at least 3 vertices, %@ has %@":
      "una zona richiede almeno 3 vertici, %@ ne ha %@",
    "account %@ is not an enabled driver":
      "l'account %@ non è un tassista abilitato",
    "added without sharing: %@":
      "aggiunto senza condividerlo: %@",
    "after the start":
      "dopo l'inizio",
    "altitude":
      "altitudine",
    "an ID token is required":
      "serve un ID token",
    "an ISO 4217 code such as EUR":
      "un codice ISO 4217 come EUR",
    "an ISO 4217 code such as EUR, not \"%@\"":
      "un codice ISO 4217 come EUR, non \"%@\"",
    "an absolute http(s) URL, such as https://www.dati.lombardia.it/resource/ykhg-b8rs.json?$limit=50000":
      "un URL http(s) assoluto, come https://www.dati.lombardia.it/resource/ykhg-b8rs.json?$limit=50000",
    "an account with the address %@ already exists":
      "esiste già un account con l'indirizzo %@",
    "an accuracy is a distance in metres, 0 or more":
      "la precisione è una distanza in metri, 0 o più",
    "an address has 1 to 200 characters":
      "un indirizzo ha da 1 a 200 caratteri",
    "an email address is required":
      "serve un indirizzo email",
    "an enum value is not one of the documented names":
      "un valore enum non è tra i nomi documentati",
    "an expense of more than zero":
      "una spesa maggiore di zero",
    "an idempotency key":
      "una chiave di idempotenza",
    "an idempotency key has at most 100 characters":
      "una chiave di idempotenza ha al massimo 100 caratteri",
    "an invite id is required":
      "serve un id di invito",
    "an itinerary id is required":
      "serve un id di itinerario",
    "another account has taken %@ meanwhile":
      "nel frattempo un altro account ha preso %@",
    "another account uses the address %@":
      "un altro account usa l'indirizzo %@",
    "at least %@ minutes are needed to change trains at %@":
      "servono almeno %@ minuti per cambiare treno a %@",
    "at least 10 characters":
      "almeno 10 caratteri",
    "at least 2 rides, a price not negative":
      "almeno 2 corse, un prezzo non negativo",
    "at least one band":
      "almeno una fascia",
    "at least one zone is required":
      "serve almeno una zona",
    "at least one zone, each named once":
      "almeno una zona, ciascuna nominata una volta",
    "at most %@ trains one way":
      "al massimo %@ treni per ogni tratta",
    "at most %@ users per call":
      "al massimo %@ utenti per chiamata",
    "at most 100 characters":
      "al massimo 100 caratteri",
    "at most 100 runs":
      "al massimo 100 corse",
    "at most 20":
      "al massimo 20",
    "at most 20 entries":
      "al massimo 20 voci",
    "at most 20 people":
      "al massimo 20 persone",
    "at most 200 stops":
      "al massimo 200 fermate",
    "at most 50":
      "al massimo 50",
    "at most 500":
      "al massimo 500",
    "at most 500 emails per call":
      "al massimo 500 email per chiamata",
    "at most 500 ids per call":
      "al massimo 500 id per chiamata",
    "at most 500 per call":
      "al massimo 500 per chiamata",
    "at most 500 subscriptions a file":
      "al massimo 500 abbonamenti per file",
    "at most 60 characters":
      "al massimo 60 caratteri",
    "bands go up in distance":
      "le fasce crescono con la distanza",
    "before your first ride you need %@":
      "prima della tua prima corsa ti serve %@",
    "before your first ride you need %@ and %@":
      "prima della tua prima corsa ti servono %@ e %@",
    "between 1 and the number of zones":
      "tra 1 e il numero di zone",
    "choose FCM, APNs or web push":
      "scegli FCM, APNs o web push",
    "choose SMS or WhatsApp":
      "scegli SMS o WhatsApp",
    "choose a notification kind":
      "scegli un tipo di notifica",
    "choose a role: passenger, driver or admin":
      "scegli un ruolo: passeggero, tassista o amministratore",
    "confirm your address first: enter the code sent to %@, or ask for a new one":
      "conferma prima il tuo indirizzo: inserisci il codice inviato a %@, o chiedine uno nuovo",
    "confirmation email":
      "email di conferma",
    "delayed":
      "ritardata",
    "does not fit this field (%@)":
      "non è adatto a questo campo (%@)",
    "eCO2":
      "eCO2",
    "each person once":
      "ogni persona una volta",
    "each share is a whole number above zero":
      "ogni quota è un numero intero maggiore di zero",
    "each topic once":
      "ogni argomento una volta sola",
    "each vertex is [latitude, longitude]":
      "ogni vertice è [latitudine, longitudine]",
    "either zones (a range from the first zone) or zoneCount":
      "zones (un intervallo dalla prima zona) oppure zoneCount",
    "either zones or two different stations (from_station_id, to_station_id)":
      "zones oppure due stazioni diverse (from_station_id, to_station_id)",
    "every one of this ticket's %@ rides was used%@":
      "tutte le %@ corse di questo biglietto sono state usate%@",
    "from %@":
      "da %@",
    "from %@ to %@":
      "da %@ a %@",
    "from -%@ (early) to 1440; 0 is on time":
      "da -%@ (in anticipo) a 1440; 0 è in orario",
    "from -180 to 180":
      "da -180 a 180",
    "from -90 to 90":
      "da -90 a 90",
    "from 0 to 60 days before":
      "da 0 a 60 giorni prima",
    "from 1 to 10":
      "da 1 a 10",
    "give the alert a name of 1 to 60 characters":
      "dai all'avviso un nome da 1 a 60 caratteri",
    "humidity":
      "umidità",
    "in %@ minutes":
      "tra %@ minuti",
    "in 1 minute":
      "tra 1 minuto",
    "in the future":
      "nel futuro",
    "invalid request: %@":
      "richiesta non valida: %@",
    "invite a friend by user id, or a contact by email":
      "invita un amico per id utente, o un contatto per email",
    "is AIR_ALERT_KIND_THRESHOLD or AIR_ALERT_KIND_SILENCE":
      "è AIR_ALERT_KIND_THRESHOLD o AIR_ALERT_KIND_SILENCE",
    "is KIND_CATALOGUE or KIND_MEASUREMENTS":
      "è KIND_CATALOGUE o KIND_MEASUREMENTS",
    "is air_quality or weather":
      "è air_quality o weather",
    "is catalogue, measurements or near_real_time":
      "è catalogue, measurements o near_real_time",
    "is not a P-256 private key in base64url (32 bytes)":
      "non è una chiave privata P-256 in base64url (32 byte)",
    "is not an absolute URL":
      "non è un URL assoluto",
    "is not one of the documented names":
      "non è tra i nomi documentati",
    "is required":
      "è obbligatorio",
    "it overlaps your reservation %@ at %@; change or delete that one first":
      "si sovrappone alla tua prenotazione %@ delle %@; modifica o elimina prima quella",
    "it overlaps your ride %@; book it for after that ride":
      "si sovrappone alla tua corsa %@; prenotala per dopo quella corsa",
    "keep at least one channel (push, email or SMS) on":
      "lascia attivo almeno un canale (push, email o SMS)",
    "keys are 1 to 64 characters, values at most 512 (%@)":
      "le chiavi hanno da 1 a 64 caratteri, i valori al massimo 512 (%@)",
    "leaves":
      "parte",
    "leaves from platform %@":
      "parte dal binario %@",
    "looks back at %@ to %@ readings":
      "considera da %@ a %@ letture precedenti",
    "measurements come as JSON rows or CSV, not GeoJSON":
      "le misure arrivano come righe JSON o CSV, non GeoJSON",
    "measurements in JSON are an array of rows":
      "le misure in JSON sono un array di righe",
    "monthly":
      "mensile",
    "monthly or yearly":
      "mensile o annuale",
    "moved to another platform":
      "spostata su un altro binario",
    "must be -180 to 180":
      "deve essere tra -180 e 180",
    "must be -90 to 90":
      "deve essere tra -90 e 90",
    "must be 1 to 100 characters":
      "deve avere da 1 a 100 caratteri",
    "must be 1 to 100,000 metres":
      "deve essere tra 1 e 100.000 metri",
    "must be 10 minutes to 7 days (10,080 minutes)":
      "deve essere da 10 minuti a 7 giorni (10.080 minuti)",
    "must be 16 bytes in base64url":
      "deve essere di 16 byte in base64url",
    "must be a P-256 public key (65 bytes, base64url)":
      "deve essere una chiave pubblica P-256 (65 byte, base64url)",
    "must be a latitude, -90 to 90":
      "deve essere una latitudine, da -90 a 90",
    "must be a longitude, -180 to 180":
      "deve essere una longitudine, da -180 a 180",
    "must be a mailto: or https: address":
      "deve essere un indirizzo mailto: o https:",
    "must be a number (64-bit integers may be strings)":
      "deve essere un numero (gli interi a 64 bit possono essere stringhe)",
    "must be a string":
      "deve essere una stringa",
    "must be a value %@ can take, in %@":
      "deve essere un valore che %@ può assumere, in %@",
    "must be east of west":
      "deve essere a est di west",
    "must be from %@ minutes before the scheduled departure %@ to a day after it":
      "deve essere tra %@ minuti prima della partenza prevista delle %@ e un giorno dopo",
    "must be north of south":
      "deve essere a nord di south",
    "must be positive":
      "deve essere positivo",
    "must be the push service's https address":
      "deve essere l'indirizzo https del servizio push",
    "must be true or false":
      "deve essere true o false",
    "must not be after to_day (%@)":
      "non può essere dopo to_day (%@)",
    "must not be negative":
      "non deve essere negativo",
    "name a measure (%@)":
      "indica una grandezza (%@)",
    "name a rider of this shared ride not yet on board":
      "indica un passeggero di questa corsa condivisa non ancora a bordo",
    "name at least one field to change":
      "indica almeno un campo da modificare",
    "name at least one user":
      "indica almeno un utente",
    "name notifications, or set all":
      "indica le notifiche, o imposta all",
    "name the account by user id or email":
      "indica l'account per id utente o email",
    "names another of your links":
      "indica un altro dei tuoi collegamenti",
    "names another source (the current year's dataset), not this one":
      "indica un'altra fonte (il dataset dell'anno in corso), non questa",
    "no <Cube time=\"…\"> day in the XML: not the ECB's reference rates file":
      "nessun giorno <Cube time=\"…\"> nell'XML: non è il file dei tassi di riferimento della BCE",
    "no account %@":
      "nessun account %@",
    "no account %@; create the driver with identity's CreateDriver":
      "nessun account %@; crea il tassista con CreateDriver di identity",
    "no account has the address %@":
      "nessun account ha l'indirizzo %@",
    "no alert %@":
      "nessun avviso %@",
    "no campaign %@ of yours":
      "nessuna tua campagna %@",
    "no campaign %@ you are a member of":
      "nessuna campagna %@ di cui sei membro",
    "no carnet of %@ rides for %@; the fare table has %@":
      "nessun carnet da %@ corse per %@; la tabella tariffaria ha %@",
    "no code is waiting for %@; ask for a new one":
      "nessun codice in attesa per %@; chiedine uno nuovo",
    "no device %@":
      "nessun dispositivo %@",
    "no device %@ of yours":
      "nessun tuo dispositivo %@",
    "no fare table is loaded: start ticketing with --fare-table":
      "nessuna tabella tariffaria caricata: avvia ticketing con --fare-table",
    "no friend request %@ is addressed to you":
      "nessuna richiesta di amicizia %@ è indirizzata a te",
    "no line %@":
      "nessuna linea %@",
    "no line %@ (see the admin lines list)":
      "nessuna linea %@ (vedi l'elenco delle linee dell'amministrazione)",
    "no location of yours is kept":
      "non è conservata alcuna tua posizione",
    "no message type \"%@\"":
      "nessun tipo di messaggio \"%@\"",
    "no offer %@ for your taxi":
      "nessuna offerta %@ per il tuo taxi",
    "no one has registered with %@":
      "nessuno si è registrato con %@",
    "no payment card on file: add one first (binario cards add)":
      "nessuna carta di pagamento registrata: aggiungine prima una (binario cards add)",
    "no payment method %@ among the user's cards":
      "nessun metodo di pagamento %@ tra le carte dell'utente",
    "no payment method %@ among your cards":
      "nessun metodo di pagamento %@ tra le tue carte",
    "no public readings on %@ in the area “%@”":
      "nessuna lettura pubblica il %@ nella zona «%@»",
    "no quote %@":
      "nessun preventivo %@",
    "no quote %@ of yours: ask for a quote first":
      "nessun tuo preventivo %@: chiedi prima un preventivo",
    "no reference sensor %@":
      "nessun sensore di riferimento %@",
    "no reference source %@":
      "nessuna fonte di riferimento %@",
    "no reference sources: configure them (--reference-sources) or save one (SaveReferenceSource)":
      "nessuna fonte di riferimento: configurale (--reference-sources) o salvane una (SaveReferenceSource)",
    "no reference station %@":
      "nessuna stazione di riferimento %@",
    "no reservation %@ of yours":
      "nessuna tua prenotazione %@",
    "no ride %@ of your taxi":
      "nessuna corsa %@ del tuo taxi",
    "no ride %@ of yours":
      "nessuna tua corsa %@",
    "no ride for offer %@":
      "nessuna corsa per l'offerta %@",
    "no route %@; see /openapi.json":
      "nessun percorso %@; vedi /openapi.json",
    "no saved place %@":
      "nessun luogo salvato %@",
    "no service behind this gateway serves %@":
      "nessun servizio dietro questo gateway offre %@",
    "no service notice %@":
      "nessun avviso di servizio %@",
    "no station \"%@\"":
      "nessuna stazione \"%@\"",
    "no station %@":
      "nessuna stazione %@",
    "no subscription %@ of yours or shared with you":
      "nessun abbonamento %@ tuo o condiviso con te",
    "no such account":
      "account inesistente",
    "no taxi %@":
      "nessun taxi %@",
    "no taxi is linked to your account; ask an admin to link one":
      "nessun taxi è collegato al tuo account; chiedi a un amministratore di collegarne uno",
    "no ticket %@":
      "nessun biglietto %@",
    "no ticket %@ of yours":
      "nessun tuo biglietto %@",
    "no timetable has been imported yet":
      "non è stato ancora importato alcun orario",
    "none of the board's readings with a humidity in this range was made within 1 km of %@":
      "nessuna lettura della centralina con l'umidità in questo intervallo è stata fatta entro 1 km da %@",
    "not a cursor from this service":
      "non è un cursore di questo servizio",
    "not a fare table: %@":
      "non è una tabella tariffaria: %@",
    "not a field of the request":
      "non è un campo della richiesta",
    "not a ticket's validation code":
      "non è il codice di convalida di un biglietto",
    "not a zone file: %@":
      "non è un file di zone: %@",
    "not a zone range":
      "non è un intervallo di zone",
    "now":
      "ora",
    "one budget per category":
      "un budget per categoria",
    "one text per language":
      "un testo per lingua",
    "one way":
      "sola andata",
    "only %@ of the charge is left to refund":
      "restano da rimborsare solo %@ dell'addebito",
    "only the near-real-time feed fills its gaps from another source":
      "solo il flusso quasi in tempo reale colma le sue lacune da un'altra fonte",
    "only the organiser of %@ can do that":
      "solo l'organizzatore di %@ può farlo",
    "only the owner may %@ a shared subscription; you may withdraw from it":
      "solo il titolare può %@ un abbonamento condiviso; tu puoi ritirarti",
    "passenger has ride %@ open":
      "il passeggero ha la corsa %@ aperta",
    "pick at most %@ stations":
      "scegli al massimo %@ stazioni",
    "pressure":
      "pressione",
    "prices must not be negative":
      "i prezzi non devono essere negativi",
    "quarterly":
      "trimestrale",
    "rate limit exceeded (%@ calls per second per client); slow down and retry":
      "limite di frequenza superato (%@ chiamate al secondo per client); rallenta e riprova",
    "report that you are at the pickup first":
      "segnala prima di essere arrivato al punto di partenza",
    "report your position first: a taxi waits in the queue of the zone it is in":
      "comunica prima la tua posizione: un taxi attende nella coda della zona in cui si trova",
    "return":
      "andata e ritorno",
    "ride %@ of a deleted account is not settled yet; its erasure waits":
      "la corsa %@ di un account eliminato non è ancora saldata; la sua cancellazione attende",
    "send the device's token: authorization: Device <token>":
      "invia il token del dispositivo: authorization: Device <token>",
    "send the file's contents":
      "invia il contenuto del file",
    "set minutes or new_departure, not both":
      "imposta minutes o new_departure, non entrambi",
    "sign-in with Google is not configured on this server":
      "l'accesso con Google non è configurato su questo server",
    "someone else marked %@ paid meanwhile: look at it again":
      "qualcun altro ha segnato %@ come pagato nel frattempo: guardalo di nuovo",
    "stop %@":
      "fermata %@",
    "taxi %@ has the plate %@":
      "il taxi %@ ha la targa %@",
    "taxi %@ is on a job; change its driver when it is free":
      "il taxi %@ è in servizio; cambiane il tassista quando è libero",
    "taxi %@ is on a job; delete it when it is free":
      "il taxi %@ è in servizio; eliminalo quando è libero",
    "temperature":
      "temperatura",
    "text message":
      "SMS",
    "that code was replaced or used meanwhile; ask for a new one":
      "quel codice è stato sostituito o usato nel frattempo; chiedine uno nuovo",
    "that driver drives taxi %@; unlink them there first":
      "quel tassista guida il taxi %@; scollegalo prima da lì",
    "that is already your address":
      "è già il tuo indirizzo",
    "that is not this ride's passenger code; ask the passenger for theirs":
      "non è il codice passeggero di questa corsa; chiedi al passeggero il suo",
    "that is your own address":
      "è il tuo stesso indirizzo",
    "the CSV cannot be read: %@":
      "il CSV non si può leggere: %@",
    "the CSV has no column %@: not a subscriptions file":
      "il CSV non ha la colonna %@: non è un file di abbonamenti",
    "the CSV starts with \"Date, USD, …\": not the ECB's reference rates file":
      "il CSV inizia con \"Date, USD, …\": non è il file dei tassi di riferimento della BCE",
    "the ECB's reference rates file (XML or CSV) is required":
      "serve il file dei tassi di riferimento della BCE (XML o CSV)",
    "the ID token carries no email address; allow the email scope":
      "l'ID token non contiene un indirizzo email; consenti l'ambito email",
    "the ID token does not verify: %@":
      "l'ID token non è valido: %@",
    "the ID token has expired; sign in with Google again":
      "l'ID token è scaduto; accedi di nuovo con Google",
    "the ID token names no subject":
      "l'ID token non indica un soggetto",
    "the ID token was issued for another application":
      "l'ID token è stato emesso per un'altra applicazione",
    "the ID token was issued in the future":
      "l'ID token è stato emesso nel futuro",
    "the ID token was not issued by the configured provider":
      "l'ID token non è stato emesso dal fornitore configurato",
    "the ID token's email address is not one identity accepts":
      "l'indirizzo email dell'ID token non è tra quelli che identity accetta",
    "the JSON does not fit the request (%@)":
      "il JSON non corrisponde alla richiesta (%@)",
    "the JSON is truncated":
      "il JSON è troncato",
    "the access token's session has ended (signed out); sign in again":
      "la sessione dell'access token è terminata (uscita effettuata); accedi di nuovo",
    "the account this board belongs to is disabled; its uploads are refused until an administrator enables it":
      "l'account di questa centralina è disabilitato; i suoi caricamenti sono rifiutati finché un amministratore non lo riabilita",
    "the account was deleted meanwhile; sign in again":
      "l'account è stato eliminato nel frattempo; accedi di nuovo",
    "the amounts add up to %@, not the expense's amount":
      "gli importi sommano a %@, non all'importo della spesa",
    "the answer does not decode: %@":
      "la risposta non si decodifica: %@",
    "the answer is not a %@: %@":
      "la risposta non è un %@: %@",
    "the authorization metadata is not \"Bearer <access token>\"":
      "il metadato authorization non è \"Bearer <access token>\"",
    "the birth date is before 1900":
      "la data di nascita è precedente al 1900",
    "the birth date must be in the past":
      "la data di nascita deve essere nel passato",
    "the board was within 1 km of %@ for %@ of the station's values: a calibration needs %@":
      "la centralina è stata entro 1 km da %@ per %@ valori della stazione: una calibrazione ne richiede %@",
    "the board's values or its humidity never changed near the station: a fit cannot tell their effects apart":
      "i valori della centralina o la sua umidità non sono mai cambiati vicino alla stazione: la regressione non può distinguerne gli effetti",
    "the body":
      "il corpo",
    "the body is larger than %@ bytes":
      "il corpo supera i %@ byte",
    "the body must be a JSON object":
      "il corpo deve essere un oggetto JSON",
    "the body must be application/json, not %@":
      "il corpo deve essere application/json, non %@",
    "the call was cancelled":
      "la chiamata è stata annullata",
    "the call's metadata is %@ bytes; the gateway takes at most %@":
      "i metadati della chiamata sono %@ byte; il gateway ne accetta al massimo %@",
    "the card ending %@ was declined: %@":
      "la carta che termina con %@ è stata rifiutata: %@",
    "the card has expired":
      "la carta è scaduta",
    "the card was declined":
      "la carta è stata rifiutata",
    "the card was declined by its issuer; use another card":
      "la carta è stata rifiutata dall'emittente; usa un'altra carta",
    "the centre must be a latitude of -90 to 90 and a longitude of -180 to 180":
      "il centro deve avere una latitudine da -90 a 90 e una longitudine da -180 a 180",
    "the code for %@ has expired; ask for a new code":
      "il codice per %@ è scaduto; chiedi un nuovo codice",
    "the code for %@ has expired; ask for a new one":
      "il codice per %@ è scaduto; chiedine uno nuovo",
    "the code is the 6 digits from the %@":
      "il codice è fatto delle 6 cifre ricevute con %@",
    "the code is wrong":
      "il codice è sbagliato",
    "the code's signature does not verify: it is forged or altered":
      "la firma del codice non è valida: è falso o alterato",
    "the conditions":
      "le condizioni",
    "the current password is required":
      "serve la password attuale",
    "the date being paid (YYYY-MM-DD) is required":
      "serve la data che si paga (AAAA-MM-GG)",
    "the day %@ is not a date":
      "il giorno %@ non è una data",
    "the deal must end after it starts":
      "l'offerta deve finire dopo l'inizio",
    "the deal's id is required":
      "serve l'id dell'offerta",
    "the departure station":
      "la stazione di partenza",
    "the description":
      "la descrizione",
    "the destination is the departure station":
      "la destinazione è la stazione di partenza",
    "the destination is the origin":
      "la destinazione coincide con l'origine",
    "the destination station":
      "la stazione di destinazione",
    "the device token":
      "il token del dispositivo",
    "the device token is malformed (bdt_ and 43 characters)":
      "il token del dispositivo non è valido (bdt_ e 43 caratteri)",
    "the device token is not valid (revoked, rotated, or mistyped); its owner can make a new one":
      "il token del dispositivo non è valido (revocato, sostituito o scritto male); il titolare può crearne uno nuovo",
    "the documentation page has no %@":
      "la pagina di documentazione non ha %@",
    "the event ends before it starts":
      "la tappa finisce prima di iniziare",
    "the expiry month is 1 to 12":
      "il mese di scadenza va da 1 a 12",
    "the expiry year has four digits, e.g. 2029":
      "l'anno di scadenza ha quattro cifre, ad es. 2029",
    "the fare table has no price for %@":
      "la tabella tariffaria non ha un prezzo per %@",
    "the feed's zip archive is required":
      "serve l'archivio zip del feed",
    "the file has no exchange rate":
      "il file non contiene alcun tasso di cambio",
    "the file is neither CSV nor the JSON Wallos exports":
      "il file non è né un CSV né il JSON che esporta Wallos",
    "the gateway has not loaded identity's signing keys yet; retry shortly":
      "il gateway non ha ancora caricato le chiavi di firma di identity; riprova a breve",
    "the headsign":
      "la destinazione indicata",
    "the issuer refused the card; add another card and try again":
      "l'emittente ha rifiutato la carta; aggiungi un'altra carta e riprova",
    "the issuer refused the charge; use another card":
      "l'emittente ha rifiutato l'addebito; usa un'altra carta",
    "the last four digits of the card, or nothing":
      "le ultime quattro cifre della carta, o niente",
    "the last name":
      "il cognome",
    "the latitude must be between -90 and 90":
      "la latitudine deve essere tra -90 e 90",
    "the line":
      "la linea",
    "the longitude must be between -180 and 180":
      "la longitudine deve essere tra -180 e 180",
    "the name":
      "il nome",
    "the next date to pay for %@ is %@, not %@":
      "la prossima data da pagare per %@ è %@, non %@",
    "the next payment \"%@\" is not a date YYYY-MM-DD":
      "il prossimo pagamento \"%@\" non è una data AAAA-MM-GG",
    "the note is longer than 500 characters":
      "la nota supera i 500 caratteri",
    "the notes":
      "le note",
    "the offer %@ expired at %@; the job went to another taxi":
      "l'offerta %@ è scaduta alle %@; la corsa è andata a un altro taxi",
    "the offer %@ expired; the job went to another taxi":
      "l'offerta %@ è scaduta; la corsa è andata a un altro taxi",
    "the offer %@ was accepted already":
      "l'offerta %@ è già stata accettata",
    "the offer %@ was rejected already":
      "l'offerta %@ è già stata rifiutata",
    "the offer %@ was withdrawn (the passenger cancelled)":
      "l'offerta %@ è stata ritirata (il passeggero ha annullato)",
    "the offer must end after it starts":
      "l'offerta deve finire dopo l'inizio",
    "the offer's id is required":
      "serve l'id dell'offerta",
    "the origin station":
      "la stazione d'origine",
    "the password is required":
      "serve la password",
    "the password is wrong":
      "la password è sbagliata",
    "the password must not be the email address":
      "la password non deve essere l'indirizzo email",
    "the password needs %@":
      "alla password servono %@",
    "the payer is someone on the trip":
      "chi paga è qualcuno del viaggio",
    "the percentages add up to %@ %%, not 100 %%":
      "le percentuali sommano a %@ %%, non a 100 %%",
    "the period is weekly, monthly, quarterly or yearly, not \"%@\"":
      "il periodo è settimanale, mensile, trimestrale o annuale, non \"%@\"",
    "the pickup is outside the city's taxi zones":
      "il punto di partenza è fuori dalle zone taxi della città",
    "the place":
      "il luogo",
    "the place's id is required":
      "serve l'id del luogo",
    "the place's name":
      "il nome del luogo",
    "the platform":
      "il binario",
    "the price \"%@\" has no currency Binario knows: write its code, as in 12.50 EUR":
      "il prezzo \"%@\" non ha una valuta che Binario conosce: scrivine il codice, come in 12.50 EUR",
    "the price \"%@\" is not an amount in %@":
      "il prezzo \"%@\" non è un importo in %@",
    "the provider has not verified %@; verify it with the provider first":
      "il fornitore non ha verificato %@; verificalo prima con il fornitore",
    "the purchase of this ticket has no charge to refund":
      "l'acquisto di questo biglietto non ha un addebito da rimborsare",
    "the query is longer than 200 characters":
      "la ricerca supera i 200 caratteri",
    "the quote expired at %@; ask for a new one":
      "il preventivo è scaduto alle %@; chiedine uno nuovo",
    "the radius must be 100 to 50,000 metres":
      "il raggio deve essere da 100 a 50.000 metri",
    "the range must end after it starts":
      "l'intervallo deve finire dopo l'inizio",
    "the range must end after it starts (from %@, to %@)":
      "l'intervallo deve finire dopo l'inizio (da %@, a %@)",
    "the rate of %@, \"%@\", is not a positive number":
      "il tasso di %@, \"%@\", non è un numero positivo",
    "the reason":
      "il motivo",
    "the refresh token has expired; sign in again":
      "il refresh token è scaduto; accedi di nuovo",
    "the refresh token is not valid; sign in again":
      "il refresh token non è valido; accedi di nuovo",
    "the reminder days \"%@\" are not a number":
      "i giorni del promemoria \"%@\" non sono un numero",
    "the request could not be encoded":
      "non è stato possibile codificare la richiesta",
    "the request does not fit %@: %@":
      "la richiesta non corrisponde a %@: %@",
    "the request has no field \"%@\"":
      "la richiesta non ha il campo \"%@\"",
    "the request is invalid":
      "la richiesta non è valida",
    "the request is the JSON body; this route takes no query parameters":
      "la richiesta è il corpo JSON; questo percorso non accetta parametri di query",
    "the reservation %@ could be changed until %@; delete it instead (the fee applies in its last %@ minutes)":
      "la prenotazione %@ si poteva modificare fino alle %@; eliminala invece (negli ultimi %@ minuti si applica la penale)",
    "the reservation %@ is %@; it can no longer change":
      "la prenotazione %@ è %@; non si può più modificare",
    "the reservation %@ is deleted already":
      "la prenotazione %@ è già eliminata",
    "the reservation's ride %@ is %@; it can no longer be deleted":
      "la corsa %@ della prenotazione è %@; non si può più eliminare",
    "the return run leaves before the outbound run arrives":
      "la corsa di ritorno parte prima che arrivi quella di andata",
    "the ride %@ has ended already":
      "la corsa %@ è già terminata",
    "the ride %@ has started; it ends at the destination":
      "la corsa %@ è iniziata; termina a destinazione",
    "the ride %@ is %@":
      "la corsa %@ è %@",
    "the ride %@ is in progress":
      "la corsa %@ è in corso",
    "the run calls at %@ only before %@":
      "la corsa ferma a %@ solo prima di %@",
    "the run does not call at %@":
      "la corsa non ferma a %@",
    "the run has no stop %@ (its stops: %@)":
      "la corsa non ha la fermata %@ (le sue fermate: %@)",
    "the run is already cancelled from %@ on; nobody was told again":
      "la corsa è già soppressa da %@ in poi; nessuno è stato avvisato di nuovo",
    "the run is already cancelled; nobody was told again":
      "la corsa è già soppressa; nessuno è stato avvisato di nuovo",
    "the run is cancelled: it cannot be %@":
      "la corsa è soppressa: non può essere %@",
    "the run no longer calls at %@ (it was cancelled from there): it cannot be %@ there":
      "la corsa non ferma più a %@ (è soppressa da lì): non può esservi %@",
    "the security code is the %@ digits on the card":
      "il codice di sicurezza è fatto delle %@ cifre sulla carta",
    "the service's storage (%@) is full: nothing was written; retry once space is freed":
      "la memoria del servizio (%@) è piena: non è stato scritto nulla; riprova quando si libera spazio",
    "the shop's id is required":
      "serve l'id del negozio",
    "the shop's name":
      "il nome del negozio",
    "the station's id":
      "l'id della stazione",
    "the timetable has no run %@: %@":
      "l'orario non ha la corsa %@: %@",
    "the timetable has no station %@":
      "l'orario non ha la stazione %@",
    "the title":
      "il titolo",
    "the token from the reset link is required":
      "serve il token del link di reimpostazione",
    "the train number":
      "il numero del treno",
    "the train reaches %@ at %@; it cannot leave before":
      "il treno arriva a %@ alle %@; non può partire prima",
    "the trip ends before it starts":
      "il viaggio finisce prima di iniziare",
    "the trip id":
      "l'id della corsa",
    "the user's id":
      "l'id dell'utente",
    "the value of %@ is not a number: %@":
      "il valore di %@ non è un numero: %@",
    "the way back must go from %@ to %@":
      "il ritorno deve andare da %@ a %@",
    "the web app has no %@":
      "l'app web non ha %@",
    "there is a taxi %@ already":
      "esiste già un taxi %@",
    "there is already a trip %@":
      "esiste già una corsa %@",
    "there is no charge %@ to refund":
      "non c'è un addebito %@ da rimborsare",
    "there is no deal %@":
      "non esiste l'offerta %@",
    "there is no place %@":
      "non esiste il luogo %@",
    "there is no route offer %@":
      "non esiste l'offerta di percorso %@",
    "there is no shop %@":
      "non esiste il negozio %@",
    "they are already invited to or a member of %@":
      "è già invitato a %@ o ne fa parte",
    "this account has been disabled by an administrator":
      "questo account è stato disabilitato da un amministratore",
    "this account has been disabled by an administrator; contact support":
      "questo account è stato disabilitato da un amministratore; contatta l'assistenza",
    "this device was deleted by its owner; its token uploads nothing any more":
      "questo dispositivo è stato eliminato dal titolare; il suo token non carica più nulla",
    "this gateway serves no documentation page (start it with --docs-folder)":
      "questo gateway non offre una pagina di documentazione (avvialo con --docs-folder)",
    "this idempotency key was used for another purchase; use a new key":
      "questa chiave di idempotenza è stata usata per un altro acquisto; usa una nuova chiave",
    "this is not a valid card number (check the digits)":
      "questo non è un numero di carta valido (controlla le cifre)",
    "this page token did not come from %@":
      "questo token di pagina non viene da %@",
    "this quote was bought already (with another idempotency key); ask for a new quote":
      "questo preventivo è già stato acquistato (con un'altra chiave di idempotenza); chiedi un nuovo preventivo",
    "this refresh token was already used, so its session has been ended for safety; sign in again":
      "questo refresh token era già stato usato, perciò la sua sessione è stata chiusa per sicurezza; accedi di nuovo",
    "this reset link is not valid, was used, or has expired; ask for a new one":
      "questo link di reimpostazione non è valido, è stato usato o è scaduto; chiedine uno nuovo",
    "this session has ended; sign in again":
      "questa sessione è terminata; accedi di nuovo",
    "this ticket expired at %@":
      "questo biglietto è scaduto alle %@",
    "this ticket is valid from %@":
      "questo biglietto è valido dalle %@",
    "this ticket was already used%@":
      "questo biglietto è già stato usato%@",
    "this ticket was refunded":
      "questo biglietto è stato rimborsato",
    "this train leaves %@ before the train before it arrives there":
      "questo treno parte da %@ prima che vi arrivi il treno precedente",
    "this train must leave from %@, where the train before it arrives":
      "questo treno deve partire da %@, dove arriva il treno precedente",
    "times are HH:MM or HH:MM:SS (up to 47:59:59 after midnight)":
      "gli orari sono HH:MM o HH:MM:SS (fino a 47:59:59 dopo mezzanotte)",
    "times must not go back (%@ after %@)":
      "gli orari non devono tornare indietro (%@ dopo %@)",
    "too many failed sign-ins for this address":
      "troppi accessi falliti per questo indirizzo",
    "too many wrong codes":
      "troppi codici sbagliati",
    "too many wrong codes for %@; ask for a new code":
      "troppi codici sbagliati per %@; chiedi un nuovo codice",
    "train %@ does not call at %@":
      "il treno %@ non ferma a %@",
    "train %@ does not call at %@ after %@":
      "il treno %@ non ferma a %@ dopo %@",
    "train changes, tickets, trips and taxi rides always reach your inbox: choose how you are told of them instead":
      "variazioni dei treni, biglietti, viaggi e corse in taxi arrivano sempre nella tua casella: scegli piuttosto come esserne avvisato",
    "trip %@ does not run on %@":
      "la corsa %@ non circola il %@",
    "unknown role %@":
      "ruolo sconosciuto %@",
    "wait for the passenger until %@ (%@ minutes after arriving) before marking them absent":
      "aspetta il passeggero fino alle %@ (%@ minuti dopo l'arrivo) prima di segnalarlo assente",
    "watch one board or an area, not both":
      "controlla una centralina o una zona, non entrambe",
    "weekly":
      "settimanale",
    "weekly, monthly, quarterly or yearly":
      "settimanale, mensile, trimestrale o annuale",
    "what it was for":
      "a cosa è servita",
    "when the event starts is required":
      "serve l'ora di inizio della tappa",
    "when the notice ends":
      "quando finisce l'avviso",
    "whom the expense was for is required":
      "serve per chi era la spesa",
    "within %@ days":
      "entro %@ giorni",
    "wrong email or password":
      "email o password sbagliate",
    "yearly":
      "annuale",
    "you already answered this invite (%@)":
      "hai già risposto a questo invito (%@)",
    "you already have %@ cards; remove one before adding another":
      "hai già %@ carte; rimuovine una prima di aggiungerne un'altra",
    "you already have %@ contacts waiting to register; remove some first":
      "hai già %@ contatti in attesa di registrarsi; rimuovine prima qualcuno",
    "you already have %@ emergency contacts, the most allowed; remove one first":
      "hai già %@ contatti di emergenza, il massimo consentito; rimuovine prima uno",
    "you already have ride %@ open; cancel it or wait for it to end":
      "hai già la corsa %@ aperta; annullala o aspetta che finisca",
    "you and %@ are already friends":
      "tu e %@ siete già amici",
    "you are on board the ride %@; it ends at your destination":
      "sei a bordo della corsa %@; termina alla tua destinazione",
    "you are on ride %@; complete it first":
      "sei nella corsa %@; concludila prima",
    "you are the last admin; make someone else admin first":
      "sei l'ultimo amministratore; nomina prima un altro amministratore",
    "you are the owner":
      "sei il titolare",
    "you can invite only your friends; send them a friend request first":
      "puoi invitare solo i tuoi amici; invia prima loro una richiesta di amicizia",
    "you cannot disable your own account":
      "non puoi disabilitare il tuo stesso account",
    "you cannot send a friend request to yourself":
      "non puoi inviare una richiesta di amicizia a te stesso",
    "you have %@ links already: delete one first":
      "hai già %@ collegamenti: eliminane prima uno",
    "you have already asked %@":
      "l'hai già chiesto a %@",
    "you have already saved %@":
      "hai già salvato %@",
    "you have no alert %@":
      "non hai nessun avviso %@",
    "you have no contact %@ waiting to register":
      "non hai un contatto %@ in attesa di registrarsi",
    "you have no device %@":
      "non hai il dispositivo %@",
    "you have no emergency contact %@":
      "non hai il contatto di emergenza %@",
    "you have no emergency contacts: add one, or alert 112":
      "non hai contatti di emergenza: aggiungine uno, o avvisa il 112",
    "you have no invite %@":
      "non hai l'invito %@",
    "you have no itinerary %@":
      "non hai l'itinerario %@",
    "you have no link %@":
      "non hai nessun collegamento %@",
    "you have no payment method %@":
      "non hai il metodo di pagamento %@",
    "you keep %@ alerts, the most a person may: delete one first":
      "hai già %@ avvisi, il massimo consentito: eliminane prima uno",
    "you left the shared ride %@ already":
      "hai già lasciato la corsa condivisa %@",
    "you organise this trip":
      "organizzi tu questo viaggio",
    "you organise this trip: delete it instead of leaving":
      "organizzi tu questo viaggio: eliminalo invece di lasciarlo",
    "you own this subscription: delete it, or stop sharing it, instead":
      "sei titolare di questo abbonamento: eliminalo, o smetti di condividerlo, invece",
    "your %@ to %@":
      "il tuo treno delle %@ per %@",
    "your %@ to %@, %@ minutes late,":
      "il tuo treno delle %@ per %@, con %@ minuti di ritardo,",
    "your %@ to %@, 1 minute late,":
      "il tuo treno delle %@ per %@, con 1 minuto di ritardo,",
    "your account no longer exists":
      "il tuo account non esiste più",
    "your position is outside every taxi zone; drive into the city first":
      "la tua posizione è fuori da ogni zona taxi; entra prima in città",
    "your profile has no phone to verify; add one first":
      "il tuo profilo non ha un telefono da verificare; aggiungine prima uno",
    "your reservation %@ at %@ is due; delete it or wait for it":
      "la tua prenotazione %@ delle %@ è imminente; eliminala o attendila",
    "zone id %@ is used twice":
      "l'id di zona %@ è usato due volte",
  ]
}
