import { runService } from '@ledger-api/runtime';
import { nftExchangeArea } from './service';

void runService(nftExchangeArea);
